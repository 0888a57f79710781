/**
 * The stale flags page in chromium, for what only a browser shows: the filters, the rows selected and the bulk
 * bar's confirmation clicked through, axe and the phone width. The flows are the page harness's
 * (`../pages/stale.test.ts`).
 */
import { describe, expect } from 'vitest';
import { staleFlags } from '../stale-story.js';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const flag = async (server: ConsoleServer, name: string, project = 'default') =>
  (await server.h.json('GET', `/api/admin/projects/${project}/features/${name}`)).body as { stale: boolean; archived: boolean };


const names = (page: import('playwright-core').Page) => page.locator('tbody th a').allTextContents();

describe('stale flags', () => {
  test('lists marked, overdue and unused flags per project; marks stale and archives after a confirmation naming them', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await staleFlags(server.h);
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stale flags' }).click();
    await page.waitForURL(`${server.base}/stale`);
    expect(await names(page)).toEqual(['marked', 'old-kill', 'old-release']);
    const reasons = async (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) }).locator('.reasons li').allTextContents();
    expect(await reasons('old-release')).toEqual([expect.stringMatching(/^Past lifetime release: 40 days, ended \d{4}-.* UTC$/), 'Never asked for']);
    expect(await reasons('old-kill')).toEqual(['Never asked for']);
    expect(await reasons('marked')).toEqual(['Marked stale', 'Never asked for']);
    const tabs = page.getByRole('navigation', { name: 'Kinds of flag' });
    expect(await tabs.getByRole('link').allInnerTexts()).toEqual(['All 3', 'Marked stale 1', 'Past lifetime 1', 'Unused 7 days 3']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'stale-desktop');

    await tabs.getByRole('link', { name: /Past lifetime/ }).click();
    await page.waitForURL(`${server.base}/stale?project=default&kind=overdue`);
    expect(await names(page)).toEqual(['old-release']);
    await page.getByLabel('Project', { exact: true }).selectOption('web');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL((url) => url.searchParams.get('project') === 'web');
    expect(await names(page)).toEqual(['web-ops']);

    await page.goto(`${server.base}/stale?project=default`);
    await page.getByLabel('Select old-release').check();
    await page.getByLabel('Select old-kill').check();
    await page.getByRole('button', { name: 'Mark stale' }).click();
    await page.waitForURL((url) => url.searchParams.get('done') === 'stale');
    expect(await page.getByRole('status').filter({ hasText: 'Marked 2 flags stale.' }).count()).toBe(1);
    expect((await flag(server, 'old-release')).stale).toBe(true);
    expect((await flag(server, 'old-kill')).stale).toBe(true);
    expect((await flag(server, 'seen-kill')).stale).toBe(false);

    await page.getByLabel('Select old-release').check();
    await page.getByLabel('Select marked').check();
    await page.getByRole('button', { name: 'Archive…' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Archive 2 flags of Default?');
    expect(await page.locator('.confirm-list li').allTextContents()).toEqual(['marked', 'old-release']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'stale-archive-confirm-desktop');
    // Nothing is archived until confirmed.
    expect((await flag(server, 'marked')).archived).toBe(false);
    await page.getByRole('button', { name: 'Archive 2 flags' }).click();
    await page.waitForURL((url) => url.searchParams.get('done') === 'archived');
    expect((await flag(server, 'marked')).archived).toBe(true);
    expect((await flag(server, 'old-release')).archived).toBe(true);
    expect(await names(page)).toEqual(['old-kill']);

    await page.setViewportSize(PHONE);
    await page.reload();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'stale-phone');
    await page.context().close();
  });

});
