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
