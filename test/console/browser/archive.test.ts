/**
 * The archive in chromium: archived flags of every project, searched; revive in place and delete after a
 * confirmation page naming the flag, both read back through the API; the permission is the flag's project's
 * (`DELETE_FEATURE`), so a Viewer only reads and a project Member acts in their project alone.
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser, type ConsoleServer } from './browser.js';

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
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
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
    await context.close();
  });

  test('a Viewer reads the archive without actions and is refused; a Member acts in their project only', async ({ server }) => {
    const mia = await createUserWithPassword(server, 'mia', 'mia-secret-42', 3);
    await archivedFlags(server);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'mia', 'mia-secret-42');
    await page.goto(`${server.base}/archive`);
    expect(await page.locator('tbody th a').count()).toBe(2);
    expect(await page.getByRole('button', { name: /^Revive/ }).count()).toBe(0);
    expect(await page.getByText('Read only').count()).toBe(2);
    const confirm = await page.goto(`${server.base}/archive/web/legacy-search/delete`);
    expect(confirm?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You may not open this page');
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers'))!)['X-CSRF-Token'] as string;
    const refused = await fetch(`${server.base}/archive/web/legacy-search/revive`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: `flagpole-session=${await sessionCookie(context)}`, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    expect(refused.status).toBe(403);
    expect(await archivedNames(server, 'web')).toEqual(['legacy-search']);

    // Member of `web`: revive there, still read only in `default`.
    expect((await server.h.req('POST', `/api/admin/projects/web/users/${mia}/roles/5`)).status).toBeLessThan(300);
    await page.goto(`${server.base}/archive`);
    expect(await page.getByRole('button', { name: /^Revive/ }).count()).toBe(1);
    await page.getByRole('button', { name: 'Revive legacy-search' }).click();
    await page.waitForURL(`${server.base}/archive?done=revived`);
    expect(await archivedNames(server, 'web')).toEqual([]);
    expect(await archivedNames(server, 'default')).toEqual(['old-banner']);
    await context.close();
  });
});
