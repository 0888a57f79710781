/**
 * The definition pages in chromium, for what only a browser shows: the row editor of legal values
 * (`static/definitions.js`), axe and the phone width. The flows are the page harness's
 * (`../pages/definitions.test.ts`).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, screenshot, scrollsSideways, seriousViolations, signedInContext, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

/** A person of `rootRole` (1 Admin, 2 Editor, 3 Viewer) signed in, in a context of `viewport`. */
async function signedIn(server: ConsoleServer, rootRole: number, viewport: { width: number; height: number } = DESKTOP): Promise<{ page: Page; context: BrowserContext }> {
  const username = rootRole === 3 ? 'vic' : 'ann';
  await createUserWithPassword(server, username, `${username}-secret-42`, rootRole);
  const context = await signedInContext(browser(), server, username, `${username}-secret-42`, { viewport });
  return { page: await context.newPage(), context };
}

/** Looks at a page: no serious accessibility violation, then a screenshot. */
async function look(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  if ((page.viewportSize()?.width ?? 0) < 500) expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, name);
}

describe('context fields', () => {
  test('an Editor creates a field with legal values; read back through the API', async ({ server }) => {
    const { page, context } = await signedIn(server, 2);
    await page.goto(`${server.base}/admin/context-fields`);
    await look(page, 'context-fields-desktop');
    await page.getByText('New context field').click();
    await page.locator('#cf-create-name').fill('region');
    await page.locator('#cf-create-description').fill('Where the user is');
    await page.getByLabel('Can be used for stickiness').check();
    await page.locator('#create-lv-0-value').fill('eu');
    await page.locator('#create-lv-0-description').fill('Europe');
    await page.getByRole('button', { name: 'Add another value' }).click();
    await page.locator('#create-lv-1-value').fill('us');
    await look(page, 'context-fields-new-desktop');
    await page.getByRole('button', { name: 'Create context field' }).click();
    await page.waitForURL(/\/admin\/context-fields\/region\?done=created/);
    const created = await server.h.json('GET', '/api/admin/context/region');
    expect(created.body).toMatchObject({ name: 'region', description: 'Where the user is', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
    await page.goto(`${server.base}/admin/context-fields?q=reg`);
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('region')]);
    await context.close();
  });

});

