/**
 * Change requests through the console: on a protected environment the flag page's and the table's controls put
 * the change in the person's draft (and say so) instead of failing; the request page's forms (title, comment,
 * submit, approve, reject, schedule, apply, cancel, discard) answer 303 back to it, or 400 with the field marked
 * and nothing changed; who sees which buttons and who is refused; conflicts shown; the project's list by state.
 * What changed is read back through the admin API.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { Browser, createUser, pageTest } from '../page-harness.js';

const test = pageTest();

const P = '/api/admin/projects/default';
const CR = `${P}/change-requests`;
const FLAG = '/projects/default/features/checkout';
const LIST = '/projects/default/change-requests';
const request = (id: number) => `${LIST}/${id}`;

/** `checkout` with a 50% rollout in production (off), production protected (one approval); answers the strategy's id. */
async function setup(h: Harness): Promise<string> {
  expect((await h.json('POST', `${P}/features`, { name: 'checkout' })).status).toBe(201);
  const added = await h.json('POST', `${P}/features/checkout/environments/production/strategies`, { name: 'flexibleRollout', title: 'Half', parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' } });
  expect(added.status).toBe(200);
  expect((await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 })).status).toBe(200);
  return added.body.id as string;
}

/** A signed-in person: root role 1 Admin, 2 Editor, 3 Viewer; with `owner`, an Owner of `default` too. */
async function person(h: Harness, username: string, rootRole: number, owner = false): Promise<Browser> {
  const id = await createUser(h, username, `${username}-password-42`, rootRole);
  if (owner) expect((await h.json('POST', `${P}/users/${id}/roles/4`)).status).toBe(200);
  const browser = new Browser(h);
  await browser.signIn(username, `${username}-password-42`);
  return browser;
}

const production = async (h: Harness) => ((await h.json('GET', `${P}/features/checkout`)).body.environments as any[]).find((e) => e.name === 'production');
const requestOf = async (h: Harness, id: number) => (await h.json('GET', `${CR}/${id}`)).body;

/** Opens `page` and posts the form at `action` with its fields as shown, `change` applied. */
async function submit(browser: Browser, page: string, action: string, change: Record<string, string> = {}, within = '') {
  const shown = await browser.get(page);
  return browser.post(action, { ...shown.fieldsOf(action, within), ...change });
}

/** Ed (Editor) switches checkout on in production from the flag page: it lands in a draft (#`id`, 1 by default). */
async function drafted(h: Harness, ed: Browser, id = 1): Promise<void> {
  const answer = await submit(ed, FLAG, `${FLAG}/environments/production/toggle`);
  expect([answer.status, answer.location]).toEqual([303, `${FLAG}?done=drafted&request=${id}#env-production`]);
}

describe('protected environments put the change in the person\'s draft', () => {
  test('the flag page\'s switch: a draft, said with a link, a banner; the flag does not move', async ({ h }) => {
    await setup(h);
    const ed = await person(h, 'ed', 2);
    const before = await ed.get(FLAG);
    expect(before.text('section#env-production')).toContain('Changes here go through change requests');
    await drafted(h, ed);
    expect((await production(h)).enabled).toBe(false);
    const cr = await requestOf(h, 1);
    expect(cr).toMatchObject({ state: 'Draft', environment: 'production', features: [{ name: 'checkout', changes: [{ action: 'updateEnabled', payload: { enabled: true } }] }] });
    const after = await ed.get(`${FLAG}?done=drafted&request=1`);
    expect(after.statuses.join(' ')).toContain('Added to your change request #1');
    expect(after.doc.querySelector('[role="status"] a')?.getAttribute('href')).toBe(request(1));
    expect(after.text('.draft-banner')).toContain('Change Request #1');
    // Another person's request is not theirs to be told about.
    const olga = await person(h, 'olga', 3, true);
    expect((await olga.get(`${FLAG}?done=drafted&request=1`)).statuses.join(' ')).not.toContain('change request #1');
    expect((await olga.get(FLAG)).doc.querySelector('.draft-banner')).toBeNull();
  });

  test('the table\'s switch (htmx) answers the row with the note; a second change joins the same draft', async ({ h }) => {
    await setup(h);
    const ed = await person(h, 'ed', 2);
    const table = await ed.get('/projects/default');
    const action = '/projects/default/rows/checkout/environments/production/toggle';
    const row = await ed.post(action, table.fieldsOf(action), { htmx: '/projects/default' });
    expect(row.status).toBe(200);
    expect(row.text('[role="status"]')).toContain('checkout in production: added to your change request #1');
    expect((await production(h)).enabled).toBe(false);
    expect((await ed.get('/projects/default')).text('.draft-banner')).toContain('#1');
    await submit(ed, FLAG, `${FLAG}/variants`, { 'variants.0.new': 'true', 'variants.0.name': 'red', 'variants.0.weightType': 'variable' });
    const cr = await requestOf(h, 1);
    expect(cr.features[0].changes.map((c: any) => c.action)).toEqual(['updateEnabled', 'patchVariant']);
    expect((await h.json('GET', `${P}/features/checkout/variants`)).body.variants).toEqual([]);
  });

  test('the strategy controls (add, edit, disable, move, delete, copy) and archive go to the draft; an admin writes directly', async ({ h }) => {
    const id = await setup(h);
    const ed = await person(h, 'ed', 2);
    const strategies = `${FLAG}/environments/production/strategies`;
    expect((await h.json('POST', `${P}/features/checkout/environments/production/strategies`, { name: 'default' })).status).toBe(200);
    const added = await submit(ed, FLAG, strategies, { 'parameters.rollout': '10' }, '#env-production');
    expect([added.status, added.location]).toEqual([303, `${FLAG}?done=drafted&request=1#env-production`]);
    expect((await submit(ed, FLAG, `${strategies}/${id}`, { 'parameters.rollout': '75' })).location).toMatch(/done=drafted&request=1/);
    expect((await submit(ed, FLAG, `${strategies}/${id}/disable`)).location).toMatch(/done=drafted&request=1/);
    expect((await submit(ed, FLAG, `${strategies}/${id}/move`, { direction: 'down' })).location).toMatch(/done=drafted&request=1/);
    expect((await ed.post(`${strategies}/${id}/delete`, { ifMatch: (await ed.get(FLAG)).fieldsOf(`${strategies}/${id}/delete`)['ifMatch']! })).location).toMatch(/done=drafted/);
    expect((await h.json('POST', `${P}/features/checkout/environments/development/strategies`, { name: 'userWithId', parameters: { userIds: '42' } })).status).toBe(200);
    expect((await submit(ed, FLAG, `${FLAG}/environments/production/copy`, { fromEnvironment: 'development' })).location).toMatch(/done=drafted&request=1/);
    expect((await submit(ed, FLAG, `${FLAG}/archive`)).location).toMatch(/done=drafted&request=1/);
    const cr = await requestOf(h, 1);
    expect(cr.features[0].changes.map((c: any) => c.action)).toEqual(['addStrategy', 'updateStrategy', 'updateStrategy', 'reorderStrategy', 'deleteStrategy', 'addStrategy', 'archiveFeature']);
    expect(cr.features[0].changes[1].payload).toMatchObject({ id, parameters: { rollout: '75' } });
    expect(cr.features[0].changes[2].payload).toMatchObject({ id, disabled: true, parameters: { rollout: '50' } });
    expect(cr.features[0].changes[3].payload).toEqual([expect.objectContaining({ sortOrder: 0 }), { id, sortOrder: 1 }]);
    expect(cr.features[0].changes[5].payload).toMatchObject({ name: 'userWithId', parameters: { userIds: '42' } });
    const flag = (await h.json('GET', `${P}/features/checkout`)).body;
    expect([flag.archived, flag.environments.find((e: any) => e.name === 'production').strategies.length]).toEqual([false, 2]);
    // An admin may skip change requests: the same control writes directly.
    const ada = await person(h, 'ada', 1);
    expect((await submit(ada, FLAG, `${FLAG}/environments/production/toggle`)).location).toBe(`${FLAG}?done=toggled#env-production`);
    expect((await production(h)).enabled).toBe(true);
    expect((await ada.get(FLAG)).text('section#env-production')).not.toContain('Changes here go through change requests');
  });

  test('the bulk bar\'s switch and archive put every selected flag in the draft, said on the table', async ({ h }) => {
    await setup(h);
    expect((await h.json('POST', `${P}/features`, { name: 'search' })).status).toBe(201);
    expect((await h.json('POST', `${P}/features/search/environments/production/strategies`, { name: 'default' })).status).toBe(200);
    const ed = await person(h, 'ed', 2);
    await ed.get('/projects/default');
    const on = await ed.post('/projects/default/bulk', { features: ['checkout', 'search'], action: 'on', environment: 'production', back: '/projects/default' });
    expect([on.status, on.location]).toEqual([303, '/projects/default?done=drafted&request=1']);
    const table = await ed.get(on.location!);
    expect(table.statuses.join(' ')).toContain('Added to your change request #1');
    expect((await requestOf(h, 1)).features.map((f: any) => [f.name, f.changes[0].action])).toEqual([['checkout', 'updateEnabled'], ['search', 'updateEnabled']]);
    expect((await production(h)).enabled).toBe(false);
    const archived = await ed.post('/projects/default/bulk', { features: ['search'], action: 'archive', back: '/projects/default' });
    expect(archived.location).toBe('/projects/default?done=drafted&request=1');
    expect((await requestOf(h, 1)).features[1].changes.map((c: any) => c.action)).toEqual(['updateEnabled', 'archiveFeature']);
    expect((await h.json('GET', `${P}/features/search`)).body.archived).toBe(false);
  });

  test('a refused draft change says why and adds nothing (a Viewer: 403)', async ({ h }) => {
    await setup(h);
    const vic = await person(h, 'vic', 3);
    const shown = await vic.get(FLAG);
    expect(shown.doc.querySelector(`form[action="${FLAG}/environments/production/toggle"]`)).toBeNull();
    expect(shown.text('section#env-production')).not.toContain('Changes here go through change requests');
    const answer = await vic.post(`${FLAG}/environments/production/toggle`, { enabled: 'on' });
    expect(answer.status).toBe(403);
    expect((await h.json('GET', CR)).body).toEqual([]);
  });
});

describe('a change request\'s page', () => {
  test('shows each change with its diff; the author submits, an Owner approves, schedules and the request is applied', async ({ h }) => {
    await setup(h);
    const ed = await person(h, 'ed', 2);
    await drafted(h, ed);
    const page = await ed.get(request(1));
    expect(page.title).toBe('Change Request #1');
    expect(page.text('.cr-change')).toContain('Switch on');
    expect(page.text('.cr-change .diff')).toMatch(/production: before off → after on/);
    expect(page.doc.querySelector('button[name="state"][value="Approved"]')).toBeNull();
    const submitted = await ed.post(`${request(1)}/state`, { state: 'In review', comment: 'please' });
    expect([submitted.status, submitted.location]).toEqual([303, `${request(1)}?done=submitted`]);
    expect(await requestOf(h, 1)).toMatchObject({ state: 'In review', comments: [{ text: 'please' }] });
    // Not one's own: the Editor's approve is refused by the mailbox, said on the page, nothing changed.
    const own = await ed.post(`${request(1)}/state`, { state: 'Approved' });
    expect(own.status).toBe(403);
    expect(own.alerts.join(' ')).toMatch(/approve/i);
    expect((await requestOf(h, 1)).state).toBe('In review');

    const olga = await person(h, 'olga', 3, true);
    const review = await olga.get(request(1));
    expect(review.doc.querySelector('button[name="state"][value="Approved"]')).not.toBeNull();
    expect((await olga.post(`${request(1)}/state`, { state: 'Approved' })).location).toBe(`${request(1)}?done=approved`);
    expect((await requestOf(h, 1)).state).toBe('Approved');
    // The past is refused on the field, and nothing changes.
    const past = await olga.post(`${request(1)}/schedule`, { scheduledAt: '2020-01-01T10:00' });
    expect(past.status).toBe(400);
    expect(past.invalid()).toEqual(['scheduledAt']);
    expect(past.message('scheduledAt')).toMatch(/not in the future/);
    expect((await requestOf(h, 1)).state).toBe('Approved');
    const empty = await olga.post(`${request(1)}/schedule`, { scheduledAt: '' });
    expect([empty.status, empty.invalid()]).toEqual([400, ['scheduledAt']]);
    const scheduled = await olga.post(`${request(1)}/schedule`, { scheduledAt: '2099-06-01T09:30' });
    expect(scheduled.location).toBe(`${request(1)}?done=scheduled`);
    expect(await requestOf(h, 1)).toMatchObject({ state: 'Scheduled', schedule: { scheduledAt: '2099-06-01T09:30:00.000Z', status: 'pending' } });
    const shown = await olga.get(request(1));
    expect(shown.text('.cr-schedule')).toContain('Scheduled for 2099-06-01 09:30 UTC');
    expect(shown.form('Reschedule')).not.toBeNull();
    expect((await olga.post(`${request(1)}/schedule`, { scheduledAt: '2099-06-02T09:30:15' })).status).toBe(303);
    expect((await requestOf(h, 1)).schedule.scheduledAt).toBe('2099-06-02T09:30:15.000Z');
    expect((await olga.post(`${request(1)}/state`, { state: 'Applied' })).location).toBe(`${request(1)}?done=applied`);
    expect((await production(h)).enabled).toBe(true);
    const closed = await olga.get(`${request(1)}?done=applied`);
    expect(closed.statuses).toContain('Change request applied: its changes are live.');
    expect(closed.doc.querySelector('main form[action$="/state"]')).toBeNull();
  });

  test('a Viewer sees the request but no buttons, and is refused (403) if they post', async ({ h }) => {
    await setup(h);
    const ed = await person(h, 'ed', 2);
    await drafted(h, ed);
    await ed.post(`${request(1)}/state`, { state: 'In review' });
    const vic = await person(h, 'vic', 3);
    const page = await vic.get(request(1));
    expect(page.status).toBe(200);
    expect(page.doc.querySelectorAll('main button[name="state"], main form[action$="/schedule"], main form[action$="/discard"], main form[action$="/title"]').length).toBe(0);
    expect(page.text('.cr-review')).toContain('Nothing here is yours to do');
    for (const [path, fields] of [['/state', { state: 'Approved' }], ['/schedule', { scheduledAt: '2099-01-01T00:00' }], ['/title', { title: 'x' }], ['/discard', {}]] as const) {
      expect((await vic.post(`${request(1)}${path}`, fields)).status, path).toBe(403);
    }
    expect(await requestOf(h, 1)).toMatchObject({ state: 'In review', title: 'Change Request #1' });
    // Anyone who reads the project comments (docs/permissions.md).
    expect((await vic.post(`${request(1)}/comments`, { text: 'looks fine' })).status).toBe(303);
    expect((await requestOf(h, 1)).comments.map((c: any) => c.text)).toEqual(['looks fine']);
  });

  test('title and comment: 400 with the field marked and nothing changed, else saved', async ({ h }) => {
    await setup(h);
    const ed = await person(h, 'ed', 2);
    await drafted(h, ed);
    const blank = await ed.post(`${request(1)}/title`, { title: '  ' });
    expect([blank.status, blank.invalid()]).toEqual([400, ['title']]);
    expect(blank.doc.querySelector('#cr-title')?.getAttribute('aria-describedby')).toBe('cr-title-error');
    expect((await requestOf(h, 1)).title).toBe('Change Request #1');
    expect((await ed.post(`${request(1)}/title`, { title: 'Checkout launch' })).location).toBe(`${request(1)}?done=titled`);
    expect((await requestOf(h, 1)).title).toBe('Checkout launch');
    expect((await ed.get(request(1))).title).toBe('#1 Checkout launch');
    const empty = await ed.post(`${request(1)}/comments`, { text: '' });
    expect([empty.status, empty.invalid()]).toEqual([400, ['text']]);
    expect((await requestOf(h, 1)).comments).toEqual([]);
    const long = await ed.post(`${request(1)}/comments`, { text: 'x'.repeat(1001) });
    expect([long.status, long.invalid()]).toEqual([400, ['text']]);
    expect((await ed.post(`${request(1)}/comments`, { text: 'ready soon' })).location).toBe(`${request(1)}?done=commented#cr-comments-title`);
    expect((await ed.get(request(1))).text('.cr-comments')).toContain('ready soon');
  });

  test('discards a change, then the draft; cancels and rejects by state', async ({ h }) => {
    const id = await setup(h);
    const ed = await person(h, 'ed', 2);
    await drafted(h, ed);
    await submit(ed, FLAG, `${FLAG}/environments/production/strategies/${id}`, { 'parameters.rollout': '75' });
    const cr = await requestOf(h, 1);
    const first = cr.features[0].changes[0].id as number;
    const discarded = await submit(ed, request(1), `${request(1)}/changes/${first}/discard`);
    expect([discarded.status, discarded.location]).toEqual([303, `${request(1)}?done=discardedChange`]);
    expect((await requestOf(h, 1)).features[0].changes.map((c: any) => c.action)).toEqual(['updateStrategy']);
    const gone = await submit(ed, request(1), `${request(1)}/discard`);
    expect([gone.status, gone.location]).toEqual([303, `${LIST}?done=discarded`]);
    expect((await h.json('GET', `${CR}/1`)).status).toBe(404);
    // A new draft: cancelled by its author; another, rejected by an Owner.
    const again = 2;
    await drafted(h, ed, again);
    expect((await ed.post(`${request(again)}/state`, { state: 'Cancelled' })).location).toBe(`${request(again)}?done=cancelled`);
    expect((await requestOf(h, again)).state).toBe('Cancelled');
    // Closed: every write is a 409, said on the page.
    const late = await ed.post(`${request(again)}/state`, { state: 'In review' });
    expect(late.status).toBe(409);
    expect(late.alerts.join(' ')).toContain('Cancelled');
    await drafted(h, ed, 3);
    await ed.post(`${request(3)}/state`, { state: 'In review' });
    const olga = await person(h, 'olga', 3, true);
    expect((await olga.post(`${request(3)}/state`, { state: 'Rejected', comment: 'not now' })).location).toBe(`${request(3)}?done=rejected`);
    expect(await requestOf(h, 3)).toMatchObject({ state: 'Rejected', comments: [{ text: 'not now' }] });
    expect((await production(h)).enabled).toBe(false);
  });

  test('conflicts are shown per change with the values when added, now and proposed', async ({ h }) => {
    const id = await setup(h);
    const ed = await person(h, 'ed', 2);
    await submit(ed, FLAG, `${FLAG}/environments/production/strategies/${id}`, { 'parameters.rollout': '75' });
    // An admin changes the strategy directly since.
    expect((await h.json('PUT', `${P}/features/checkout/environments/production/strategies/${id}`, { name: 'flexibleRollout', parameters: { rollout: '20', stickiness: 'default', groupId: 'checkout' } })).status).toBe(200);
    const page = await ed.get(request(1));
    expect(page.alerts.join(' ')).toContain('One change conflicts');
    const conflict = page.text('.cr-conflict');
    expect(conflict).toContain('Conflict: Strategy has been updated since this change was added');
    expect(conflict).toMatch(/Since it was added.*rollout: before 50 → after 20/);
    expect(conflict).toMatch(/Applying it now.*rollout: before 20 → after 75/);
    expect(page.text('.cr-change .diff')).toMatch(/rollout: before 50 → after 75/);
  });
});

describe('a project\'s change requests', () => {
  test('lists them by state, with what waits for an Owner; linked from the project\'s navigation', async ({ h }) => {
    await setup(h);
    const ed = await person(h, 'ed', 2);
    await drafted(h, ed);
    const olga = await person(h, 'olga', 3, true);
    const flags = await olga.get('/projects/default');
    expect(flags.doc.querySelector('nav.project-nav a[href="/projects/default/change-requests"]')?.textContent).toBe('Change requests');
    let list = await olga.get(LIST);
    expect(list.title).toBe('Change requests');
    expect(list.text('#cr-draft')).toBe('Drafts (1)');
    expect(list.text('section[aria-labelledby="cr-waiting"]')).toContain('Nothing waits for you');
    await ed.post(`${request(1)}/state`, { state: 'In review' });
    list = await olga.get(LIST);
    expect(list.text('section[aria-labelledby="cr-waiting"]')).toContain('Change Request #1');
    expect(list.text('section[aria-labelledby="cr-in-review"]')).toContain('Change Request #1');
    expect((await ed.get(LIST)).text('section[aria-labelledby="cr-waiting"]')).toContain('Nothing waits for you');
    await olga.post(`${request(1)}/state`, { state: 'Approved' });
    await olga.post(`${request(1)}/state`, { state: 'Applied' });
    list = await olga.get(`${LIST}?q=checkout`);
    expect(list.text('section[aria-labelledby="cr-closed"]')).toContain('Change Request #1');
    expect((await olga.get(`${LIST}?q=nothing-like-it`)).text('#cr-closed')).toBe('Closed (0)');
    expect((await olga.get('/projects/nope/change-requests')).status).toBe(404);
  });
});
