/**
 * A project's flag table through the app: the new-flag form, the switch of each row (sent without script and by
 * htmx), the offer it comes back with when switching on would serve the flag to no one, and the bulk bar. What
 * each post changed is read back through the admin API.
 */
import { describe, expect } from 'vitest';
import { pageTest } from '../page-harness.js';

const test = pageTest();
const FLAGS = '/api/admin/projects/default/features';

const enabledIn = async (h: { json: (m: string, p: string) => Promise<{ body: any }> }, flag: string, env: string) =>
  ((await h.json('GET', `${FLAGS}/${flag}`)).body.environments as { name: string; enabled: boolean }[]).find((e) => e.name === env)!.enabled;

describe('the new-flag form', () => {
  test('creates the flag and goes to its page', async ({ h, pages }) => {
    const admin = await pages.admin();
    const page = await admin.post('/projects/default/features', { name: ' checkout ', type: 'experiment', description: 'New flow' });
    expect([page.status, page.location]).toEqual([303, '/projects/default/features/checkout']);
    expect((await h.json('GET', `${FLAGS}/checkout`)).body).toMatchObject({ name: 'checkout', type: 'experiment', description: 'New flow' });
  });

  test('refused, shows the table again with the form open, the name marked and its message, and creates nothing', async ({ h, pages }) => {
    const admin = await pages.admin();
    const page = await admin.post('/projects/default/features', { name: 'a b', type: 'release', description: '' });
    expect(page.status).toBe(400);
    expect(page.invalid()).toEqual(['name']);
    expect(page.message('name')).toMatch(/^"name": must be URL-friendly/);
    expect(page.doc.querySelector('details.create-panel')?.hasAttribute('open')).toBe(true);
    expect((await h.json('GET', FLAGS)).body.features).toEqual([]);
    await h.json('POST', FLAGS, { name: 'taken' });
    const taken = await admin.post('/projects/default/features', { name: 'taken', type: 'release' });
    expect([taken.status, taken.invalid(), taken.message('name')]).toEqual([409, ['name'], expect.stringContaining('taken')]);
  });
});

describe('a row\'s switch', () => {
  test('sent without script: switches and goes back to the table as it was, its state in the address', async ({ h, pages }) => {
    await h.json('POST', FLAGS, { name: 'my-flag' });
    await h.json('POST', `${FLAGS}/my-flag/environments/development/strategies`, { name: 'default' });
    const admin = await pages.admin();
    const table = await admin.get('/projects/default?sort=name');
    const action = '/projects/default/rows/my-flag/environments/development/toggle';
    const page = await admin.post(action, { ...table.fieldsOf(action), enabled: 'on' });
    expect([page.status, page.location]).toEqual([303, '/projects/default?sort=name']);
    expect(await enabledIn(h, 'my-flag', 'development')).toBe(true);
  });

  test('sent by htmx: the row again, its switch as the server holds it; a version that moved meanwhile is refused under the row', async ({ h, pages }) => {
    await h.json('POST', FLAGS, { name: 'my-flag' });
    await h.json('POST', `${FLAGS}/my-flag/environments/development/strategies`, { name: 'default' });
    const admin = await pages.admin();
    const table = await admin.get('/projects/default');
    const action = '/projects/default/rows/my-flag/environments/development/toggle';
    const sent = { ...table.fieldsOf(action), enabled: 'on' };
    await h.json('PATCH', `${FLAGS}/my-flag`, [{ op: 'replace', path: '/description', value: 'changed meanwhile' }]);
    const refused = await admin.post(action, sent, { htmx: '/projects/default' });
    expect(refused.status).toBe(200);
    expect(refused.alerts).toEqual([expect.stringContaining('my-flag in development: If-Match does not match')]);
    expect(await enabledIn(h, 'my-flag', 'development')).toBe(false);
    // The row carries the new version: switched again from it, it goes through.
    const row = await admin.post(action, { ...refused.fieldsOf(action), enabled: 'on' }, { htmx: '/projects/default' });
    expect(row.doc.querySelector('input[role="switch"][aria-label="my-flag in development"]')?.hasAttribute('checked')).toBe(true);
    expect(await enabledIn(h, 'my-flag', 'development')).toBe(true);
  });

  test('switching on with nothing to serve offers a 100% rollout first; taken, rollout and switch are one write', async ({ h, pages }) => {
    await h.json('POST', FLAGS, { name: 'bare' });
    const admin = await pages.admin();
    const table = await admin.get('/projects/default');
    const action = '/projects/default/rows/bare/environments/development/toggle';
    const offer = await admin.post(action, { ...table.fieldsOf(action), enabled: 'on' }, { htmx: '/projects/default' });
    expect(offer.text('[role="group"]')).toContain('bare has no enabled strategy in development, so switching it on would serve it to no one.');
    expect(offer.texts('[role="group"] button')).toEqual(['Add a 100% rollout and switch on']);
    expect(await enabledIn(h, 'bare', 'development')).toBe(false);
    const before = (await h.json('GET', `${FLAGS}/bare`)).headers.get('etag');
    const taken = await admin.post(action, { ...offer.fieldsOf(action, '.offer'), with: 'strategy' }, { htmx: '/projects/default' });
    expect(taken.status).toBe(200);
    const after = await h.json('GET', `${FLAGS}/bare`);
    expect(after.body.environments.find((e: { name: string }) => e.name === 'development')).toMatchObject({ enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', groupId: 'bare' } }] });
    expect(Number(after.headers.get('etag')!.replaceAll('"', ''))).toBe(Number(before!.replaceAll('"', '')) + 1);
  });

  test('with the project\'s default strategy, the offer adds that one', async ({ h, pages }) => {
    await h.json('POST', FLAGS, { name: 'other' });
    await h.json('POST', '/api/admin/projects/default/environments/production/default-strategy', { name: 'default', title: 'Everyone' });
    const admin = await pages.admin();
    const table = await admin.get('/projects/default');
    const action = '/projects/default/rows/other/environments/production/toggle';
    const offer = await admin.post(action, { ...table.fieldsOf(action), enabled: 'on' });
    expect(offer.status).toBe(200);
    expect(offer.text('[role="group"]')).toContain('the project\'s default strategy for production (Everyone)');
    const taken = await admin.post(action, { ...offer.fieldsOf(action, '.offer'), with: 'strategy' });
    expect(taken.status).toBe(303);
    expect((await h.json('GET', `${FLAGS}/other/environments/production/strategies`)).body.map((s: { name: string }) => s.name)).toEqual(['default']);
  });
});

describe('the bulk bar', () => {
  test('switches, marks stale and archives the selected flags; with none selected it says so and changes nothing', async ({ h, pages }) => {
    for (const name of ['a', 'b', 'c']) {
      await h.json('POST', FLAGS, { name });
      await h.json('POST', `${FLAGS}/${name}/environments/development/strategies`, { name: 'default' });
    }
    const admin = await pages.admin();
    await admin.get('/projects/default');
    const on = await admin.post('/projects/default/bulk', { features: ['a', 'b'], action: 'on', environment: 'development', back: '/projects/default' });
    expect([on.status, on.location]).toEqual([303, '/projects/default?done=on&count=2&environment=development']);
    expect([await enabledIn(h, 'a', 'development'), await enabledIn(h, 'b', 'development'), await enabledIn(h, 'c', 'development')]).toEqual([true, true, false]);
    expect((await admin.get(on.location!)).statuses).toContain('Switched 2 flags on in development.');
    const none = await admin.post('/projects/default/bulk', { action: 'stale', environment: 'development', back: '/projects/default' });
    expect([none.status, none.alerts]).toEqual([400, ['Select at least one flag first.']]);
    const archive = await admin.post('/projects/default/bulk', { features: 'c', action: 'archive', environment: 'development', back: '/projects/default' });
    expect(archive.status).toBe(303);
    expect((await h.json('GET', `${FLAGS}/c`)).body.archived).toBe(true);
  });
});

describe('the table itself', () => {
  /** A flag of `default` with the default strategy in `strategyIn`. */
  async function flag(h: { json: (m: string, p: string, b?: unknown) => Promise<{ status: number; body: any }> }, name: string, options: { type?: string; description?: string; strategyIn?: string[] } = {}): Promise<void> {
    expect((await h.json('POST', FLAGS, { name, type: options.type ?? 'release', description: options.description ?? '' })).status).toBe(201);
    for (const env of options.strategyIn ?? []) expect((await h.json('POST', `${FLAGS}/${name}/environments/${env}/strategies`, { name: 'default' })).status).toBe(200);
  }
  const names = (page: { doc: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> } }) =>
    [...Array.from(page.doc.querySelectorAll('tbody.flag-row'))].map((row) => row.getAttribute('data-flag'));
  const sortOf = (page: { doc: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null; getAttribute(n: string): string | null }> } }, column: string) =>
    Array.from(page.doc.querySelectorAll('thead th')).find((th) => th.textContent?.trim().replace(/[▲▼]$/, '') === column)?.getAttribute('aria-sort') ?? null;

  test('search, filters, sort and pages are the address, and the rows follow it', async ({ h, pages }) => {
    for (let k = 0; k < 12; k += 1) {
      await flag(h, `flag-${String(k).padStart(2, '0')}`, { type: k % 3 === 0 ? 'experiment' : 'release', description: k % 2 === 0 ? 'checkout step' : 'search box', strategyIn: k < 4 ? ['development'] : [] });
    }
    await h.json('POST', '/api/admin/projects/default/bulk_features/environments/development/on', { features: ['flag-00', 'flag-02'] });
    const ann = await pages.as('ann', 1);
    // Flags made in the same millisecond tie on "Created": the pages are checked in name order.
    const first = await ann.get('/projects/default?limit=5&sort=name');
    expect([sortOf(first, 'Name'), names(first)]).toEqual(['ascending', ['flag-00', 'flag-01', 'flag-02', 'flag-03', 'flag-04']]);
    const next = first.doc.querySelector('a[rel="next"]')!.getAttribute('href')!;
    expect(next).toMatch(/offset=5/);
    const second = await ann.get(next);
    expect(names(second)).toEqual(['flag-05', 'flag-06', 'flag-07', 'flag-08', 'flag-09']);
    expect(second.statuses).toContain('6–10 of 12 flags');
    // A column header sorts the other way and goes back to the first page.
    const byName = second.doc.querySelector('thead a[href*="sort=name"]')!.getAttribute('href')!;
    expect([new URL(byName, 'http://x').searchParams.get('order'), new URL(byName, 'http://x').searchParams.get('offset')]).toEqual(['desc', null]);
    const desc = await ann.get(byName);
    expect([sortOf(desc, 'Name'), names(desc)]).toEqual(['descending', ['flag-11', 'flag-10', 'flag-09', 'flag-08', 'flag-07']]);
    const created = [...desc.doc.querySelectorAll('thead a')].find((a) => a.textContent?.trim() === 'Created')!.getAttribute('href')!;
    const byCreated = await ann.get(created);
    expect([new URL(created, 'http://x').searchParams.get('sort'), sortOf(byCreated, 'Created'), sortOf(byCreated, 'Name')]).toEqual([null, 'descending', null]);

    // The search form sends its fields with the sort kept: 0 and 6 (even: checkout; multiples of 3: experiment), name descending.
    const search = (await ann.get('/projects/default?sort=name&order=desc')).doc.querySelector('form[role="search"]')!;
    expect(search.querySelector('input[type="hidden"][name="sort"]')?.getAttribute('value')).toBe('name');
    expect(names(await ann.get('/projects/default?q=Checkout&type=experiment&sort=name&order=desc'))).toEqual(['flag-06', 'flag-00']);
    // A shared link shows the same view; the enabled filter narrows to what is on.
    const on = await ann.get('/projects/default?q=checkout&enabled=development:on&sort=name');
    expect(names(on)).toEqual(['flag-00', 'flag-02']);
    expect(on.doc.querySelector('select[name="enabled"] option[selected]')?.getAttribute('value')).toBe('development:on');
    const clear = [...on.doc.querySelectorAll('a')].find((a) => a.textContent === 'Clear')!.getAttribute('href')!;
    expect(names(await ann.get(clear)).length).toBe(12);
    expect((await ann.get('/projects/default?q=nothing-like-this')).texts('h3')).toContain('No flags match');
    const bad = await ann.get('/projects/default?sort=colour');
    expect([bad.status, bad.alerts.join(' ')]).toEqual([400, expect.stringContaining('sort')]);
  });

  test('a Viewer sees the table with no working switch, no bulk bar and no new-flag form; a post is refused', async ({ h, pages }) => {
    await flag(h, 'my-flag', { strategyIn: ['development'] });
    const vic = await pages.as('vic');
    const page = await vic.get('/projects/default');
    expect(page.doc.querySelector('input[role="switch"][aria-label="my-flag in development"]')?.hasAttribute('disabled')).toBe(true);
    expect(page.doc.querySelectorAll('input[role="switch"]:not([disabled])').length).toBe(0);
    expect(page.doc.querySelector('input[aria-label="Select my-flag"]')).toBeNull();
    expect(page.form('New flag')).toBeNull();
    expect(page.doc.querySelector('#bulk-form')).toBeNull();
    const refused = await vic.post('/projects/default/rows/my-flag/environments/development/toggle', { enabled: 'on' });
    expect(refused.status).toBe(403);
    expect(await enabledIn(h, 'my-flag', 'development')).toBe(false);
  });

  test('an empty project says how to start; the table shows each flag\'s lifecycle stage beside its mark', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const empty = await ann.get('/projects/default');
    expect(empty.texts('h3')).toContain('No flags yet');
    expect(empty.form('New flag')).not.toBeNull();
    for (const name of ['fresh', 'finished']) expect((await h.json('POST', FLAGS, { name })).status).toBe(201);
    expect((await h.json('POST', `${FLAGS}/finished/lifecycle/complete`, { status: 'kept' })).status).toBe(200);
    const page = await ann.get('/projects/default');
    expect([page.text('tbody[data-flag="fresh"] .stage'), page.text('tbody[data-flag="finished"] .stage'), page.text('tbody[data-flag="finished"] .mark')]).toEqual(['Initial', 'Completed', 'Active']);
  });

  test('the project\'s pages share its navigation; a flag\'s history link shows its timeline', async ({ h, pages }) => {
    await flag(h, 'checkout', { strategyIn: ['development'] });
    const ann = await pages.as('ann', 1);
    const flagPage = await ann.get('/projects/default/features/checkout');
    expect(flagPage.texts('nav[aria-label="Project Default"] a')).toEqual(['Flags', 'Change requests', 'History', 'Compare', 'Export and import', 'Settings']);
    const history = [...flagPage.doc.querySelectorAll('a')].find((a) => a.textContent === 'History of this flag')!.getAttribute('href')!;
    expect(history).toBe('/projects/default/history?feature=checkout');
    const timeline = await ann.get(history);
    expect(timeline.title).toBe('History of checkout');
    expect([...timeline.doc.querySelectorAll('a')].find((a) => a.textContent === 'Open the flag')?.getAttribute('href')).toBe('/projects/default/features/checkout');
    expect((await ann.get('/projects/default')).doc.querySelector('nav[aria-label="Project Default"] a[aria-current="page"]')?.textContent).toBe('Flags');
  });
});
