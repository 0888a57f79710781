/**
 * The environments page in chromium, for what only a browser shows: the keyboard moving an environment, the
 * confirmation panels, axe and the phone width. The flows are the page harness's
 * (`../pages/environments.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

interface Env { name: string; type: string; enabled: boolean; sortOrder: number }
const environments = async (server: ConsoleServer): Promise<Env[]> => (await server.h.json('GET', '/api/admin/environments')).body.environments as Env[];
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const names = async (server: ConsoleServer) => (await environments(server)).map((e) => e.name);

describe('the environments page', () => {
  test('an Admin creates, retypes, moves, turns off and deletes an environment; desktop and phone', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42', '/admin/environments');
    expect(await page.getByRole('link', { name: 'Environments' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('New environment').click();
    await page.getByLabel('Name').fill('staging');
    await page.getByLabel('Type', { exact: true }).selectOption('test');
    await page.getByRole('button', { name: 'Create environment' }).click();
    await page.waitForURL(/done=created/);
    expect(await names(server)).toEqual(['development', 'production', 'staging']);
    expect((await environments(server)).find((e) => e.name === 'staging')?.type).toBe('test');

    await page.getByLabel('Type of staging', { exact: true }).selectOption('preproduction');
    await page.getByRole('button', { name: 'Save the type of staging' }).click();
    await page.waitForURL(/done=saved/);
    expect((await environments(server)).find((e) => e.name === 'staging')?.type).toBe('preproduction');

    // The keyboard alone moves it: focus the button, press Enter.
    await page.getByRole('button', { name: 'Move staging up' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=moved/);
    expect(await names(server)).toEqual(['development', 'staging', 'production']);
    expect(await page.locator('tbody th').allTextContents()).toEqual(['development', 'staging', 'production']);

    await page.getByRole('button', { name: 'Turn staging off' }).click();
    await page.waitForURL(/done=off/);
    expect((await environments(server)).find((e) => e.name === 'staging')?.enabled).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'environments-desktop');

    await row(page, 'staging').locator('summary').click();
    await expect.poll(() => page.getByText('Delete the environment "staging"?').isVisible()).toBe(true);
    await screenshot(page, 'environments-delete-confirm-desktop');
    await page.getByRole('button', { name: 'Delete staging', exact: true }).click();
    await page.waitForURL(/done=deleted/);
    expect(await names(server)).toEqual(['development', 'production']);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/admin/environments`);
    await screenshot(page, 'environments-phone');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

});
