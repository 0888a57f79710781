/**
 * The archive through the app: archived flags of every project, searched; revive in place and delete after a
 * confirmation page naming the flag, both read back through the API; the permission is the flag's project's
 * (`DELETE_FEATURE`), so a Viewer only reads and a project Member acts in their project alone.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { Browser, createUser, pageTest } from '../page-harness.js';

const test = pageTest();

const flagPath = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;

/** Project `web` beside `default`; `old-banner` (default) and `legacy-search` (web) archived, `keep` active. */
async function archivedFlags(h: Harness): Promise<void> {
  expect((await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web shop' })).status).toBe(201);
  for (const [project, name] of [['default', 'old-banner'], ['web', 'legacy-search'], ['default', 'keep']] as const) {
    expect((await h.json('POST', `/api/admin/projects/${project}/features`, { name, description: name === 'old-banner' ? 'The winter sale banner' : '' })).status).toBe(201);
  }
  expect((await h.req('DELETE', flagPath('default', 'old-banner'))).status).toBe(202);
  expect((await h.req('DELETE', flagPath('web', 'legacy-search'))).status).toBe(202);
}

const archivedNames = async (h: Harness, project: string) =>
  ((await h.json('GET', `/api/admin/archive/features/${project}`)).body.features as { name: string }[]).map((f) => f.name);

describe('the archive', () => {
  test('lists archived flags of every project; revive and a confirmed delete are read back through the API', async ({ h, pages }) => {
    await archivedFlags(h);
    const ann = await pages.as('ann', 1);
    const list = await ann.get('/archive');
    expect(list.doc.querySelector('nav[aria-label="Main"] a[aria-current="page"]')?.textContent).toBe('Archive');
    // Most recently archived first; the active flag is not listed.
    expect(list.texts('tbody th a')).toEqual(['legacy-search', 'old-banner']);
    expect(list.text('tbody')).toContain('The winter sale banner');
    const found = await ann.get('/archive?q=banner');
    expect(found.texts('tbody th a')).toEqual(['old-banner']);
    const revived = await ann.post('/archive/default/old-banner/revive', found.fieldsOf('/archive/default/old-banner/revive'));
    expect([revived.status, revived.location]).toEqual([303, '/archive?q=banner&done=revived']);
    expect((await ann.get(revived.location!)).statuses.join(' ')).toContain('Flag revived');
    expect((await h.json('GET', flagPath('default', 'old-banner'))).body.archived).toBe(false);
    expect(await archivedNames(h, 'default')).toEqual([]);

    const link = (await ann.get('/archive')).doc.querySelector('a[aria-label="Delete legacy-search…"]')!.getAttribute('href')!;
    const confirm = await ann.get(link);
    expect([confirm.title, confirm.text('main')?.includes('of project Web shop')]).toEqual(['Delete “legacy-search” for good?', true]);
    expect(confirm.doc.querySelector('a.button[href="/archive"]')?.textContent).toBe('Cancel');
    expect(await archivedNames(h, 'web')).toEqual(['legacy-search']);
    const deleted = await ann.post('/archive/web/legacy-search/delete', confirm.fieldsOf('/archive/web/legacy-search/delete'));
    expect([deleted.status, deleted.location]).toEqual([303, '/archive?done=deleted']);
    const after = await ann.get(deleted.location!);
    expect(after.statuses.join(' ')).toContain('Flag deleted.');
    expect(after.text()).toContain('The archive is empty');
    expect((await h.json('GET', flagPath('web', 'legacy-search'))).status).toBe(404);
  });

  test('a Viewer reads the archive without actions and is refused; a Member acts in their project only', async ({ h }) => {
    const mia = await createUser(h, 'mia', 'mia-secret-42', 3);
    await archivedFlags(h);
    const browser = new Browser(h);
    const list = await browser.signIn('mia', 'mia-secret-42').then(() => browser.get('/archive'));
    expect(list.doc.querySelectorAll('tbody th a').length).toBe(2);
    expect(list.doc.querySelectorAll('button[aria-label^="Revive"]').length).toBe(0);
    expect(list.texts('tbody .muted.small').filter((t) => t === 'Read only').length).toBe(2);
    const confirm = await browser.get('/archive/web/legacy-search/delete');
    expect([confirm.status, confirm.title]).toEqual([403, 'You may not open this page']);
    expect((await browser.post('/archive/web/legacy-search/revive', { back: '/archive' })).status).toBe(403);
    expect(await archivedNames(h, 'web')).toEqual(['legacy-search']);

    // Member of `web`: revive there, still read only in `default`.
    expect((await h.req('POST', `/api/admin/projects/web/users/${mia}/roles/5`)).status).toBeLessThan(300);
    expect((await browser.get('/archive')).doc.querySelectorAll('button[aria-label^="Revive"]').length).toBe(1);
    const revived = await browser.post('/archive/web/legacy-search/revive', { back: '/archive' });
    expect(revived.location).toBe('/archive?done=revived');
    expect(await archivedNames(h, 'web')).toEqual([]);
    expect(await archivedNames(h, 'default')).toEqual(['old-banner']);
  });
});
