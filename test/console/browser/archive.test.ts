/**
 * The archive in chromium, for what only a browser shows: revive and the delete confirmation clicked through, axe,
 * and the phone width. The flows and the permissions are the page harness's (`../pages/archive.test.ts`).
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const flagPath = (project: string, name: string) => `/api/admin/projects/${project}/features/${name}`;

/** Project `web` beside `default`; `old-banner` (default) and `legacy-search` (web) archived, `keep` active. */
async function archivedFlags(server: ConsoleServer): Promise<void> {
  expect((await server.h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web shop' })).status).toBe(201);
  for (const [project, name] of [['default', 'old-banner'], ['web', 'legacy-search'], ['default', 'keep']] as const) {
    expect((await server.h.json('POST', `/api/admin/projects/${project}/features`, { name, description: name === 'old-banner' ? 'The winter sale banner' : '' })).status).toBe(201);
  }
  expect((await server.h.req('DELETE', flagPath('default', 'old-banner'))).status).toBe(202);
  expect((await server.h.req('DELETE', flagPath('web', 'legacy-search'))).status).toBe(202);
}

const archivedNames = async (server: ConsoleServer, project: string) =>
  ((await server.h.json('GET', `/api/admin/archive/features/${project}`)).body.features as { name: string }[]).map((f) => f.name);

describe('the archive', () => {
  test('lists archived flags of every project; revive and a confirmed delete are read back through the API', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await archivedFlags(server);
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Archive' }).click();
    await page.waitForURL(`${server.base}/archive`);
    // Most recently archived first; the active flag is not listed.
    expect(await page.locator('tbody th a').allTextContents()).toEqual(['legacy-search', 'old-banner']);
    expect(await page.getByText('The winter sale banner').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'archive-desktop');

    await page.getByLabel('Flag name').fill('banner');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(`${server.base}/archive?q=banner`);
    expect(await page.locator('tbody th a').allTextContents()).toEqual(['old-banner']);
    await page.getByRole('button', { name: 'Revive old-banner' }).click();
    await page.waitForURL(`${server.base}/archive?q=banner&done=revived`);
    expect(await page.getByRole('status').filter({ hasText: 'Flag revived' }).count()).toBe(1);
    expect((await server.h.json('GET', flagPath('default', 'old-banner'))).body.archived).toBe(false);
    expect(await archivedNames(server, 'default')).toEqual([]);

    await page.goto(`${server.base}/archive`);
    await page.getByRole('link', { name: 'Delete legacy-search…' }).click();
    await page.waitForURL((url) => url.pathname === '/archive/web/legacy-search/delete');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete “legacy-search” for good?');
    expect(await page.getByText('of project Web shop').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'archive-delete-desktop');
    // Cancel leaves it be.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${server.base}/archive`);
    expect(await archivedNames(server, 'web')).toEqual(['legacy-search']);
    await page.getByRole('link', { name: 'Delete legacy-search…' }).click();
    await page.getByRole('button', { name: 'Delete legacy-search' }).click();
    await page.waitForURL(`${server.base}/archive?done=deleted`);
    expect(await page.getByRole('status').filter({ hasText: 'Flag deleted.' }).count()).toBe(1);
    expect((await server.h.json('GET', flagPath('web', 'legacy-search'))).status).toBe(404);
    expect(await page.getByText('The archive is empty').count()).toBe(1);

    await page.setViewportSize(PHONE);
    await server.h.req('DELETE', flagPath('default', 'keep'));
    await page.goto(`${server.base}/archive`);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'archive-phone');
    await page.context().close();
  });

});
