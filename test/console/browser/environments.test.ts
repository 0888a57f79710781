/**
 * The environments page in chromium: an Admin creates an environment, changes its type, moves it, turns it off
 * and deletes it (each read back through the admin API); deleting a used environment is refused with the API's
 * reason; a Viewer sees the list without controls and a post is refused. Accessibility and both widths.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

interface Env { name: string; type: string; enabled: boolean; sortOrder: number }
const environments = async (server: ConsoleServer): Promise<Env[]> => (await server.h.json('GET', '/api/admin/environments')).body.environments as Env[];
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const names = async (server: ConsoleServer) => (await environments(server)).map((e) => e.name);

describe('the environments page', () => {
  test('an Admin creates, retypes, moves, turns off and deletes an environment; desktop and phone', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    await page.goto(`${server.base}/admin/environments`);
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
    await context.close();
  });

  test('deleting an environment a flag uses is refused with the API\'s reason, and a taken name shows next to its field', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await server.h.json('POST', '/api/admin/projects/default/features', { name: 'checkout' });
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    await page.goto(`${server.base}/admin/environments`);
    await row(page, 'production').getByText('Delete').first().click();
    await page.getByRole('button', { name: 'Delete production', exact: true }).click();
    await page.waitForLoadState();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('default');
    expect(await names(server)).toEqual(['development', 'production']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'environments-refused-desktop');

    await page.goto(`${server.base}/admin/environments`);
    await page.getByText('New environment').click();
    await page.getByLabel('Name').fill('production');
    await page.getByRole('button', { name: 'Create environment' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#env-new-name-error').textContent()).toContain('already exists');
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await context.close();
  });

  test('a Viewer sees the environments without controls, and a post is refused', async ({ server }) => {
    await createUserWithPassword(server, 'vic', 'vic-secret-42', 3);
    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, server, 'vic', 'vic-secret-42');
    await page.goto(`${server.base}/admin/environments`);
    expect(await page.locator('tbody th').allTextContents()).toEqual(['development', 'production']);
    expect(await page.getByRole('button').filter({ hasText: /Move|Turn|Delete|Save|New/ }).count()).toBe(0);
    expect(await page.getByText('New environment').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'environments-viewer-phone');
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers'))!)['X-CSRF-Token'] as string;
    const refused = await fetch(`${server.base}/admin/environments/production/off`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: `flagpole-session=${await sessionCookie(context)}`, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('You may not do this');
    expect((await environments(server)).every((e) => e.enabled)).toBe(true);
    await context.close();
  });
});
