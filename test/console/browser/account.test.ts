/**
 * Your account page in chromium, for what only a browser shows: the user menu opening it, the password form's
 * refusals as they render, axe at both widths and the phone width. The flows are the page harness's
 * (`../pages/account.test.ts`).
 */
import { describe, expect } from 'vitest';
import { Browser as PageBrowser } from '../page-harness.js';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser } from './browser.js';

const browser = useBrowser();
const test = consoleTest({ LOG_LEVEL: 'debug' });

describe('your account', () => {
  test('a Viewer opens it from the user menu and changes their password; desktop and phone', async ({ server }) => {
    await createUserWithPassword(server, 'bob', 'bob-builds-42', 3);
    const page = await signedInPage(browser(), server, 'bob', 'bob-builds-42');
    await page.locator('.user-menu summary').click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL(`${server.base}/account`);
    expect(await page.title()).toBe('Your account · flagpole');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-desktop');

    // A wrong current password is refused: the page harness's (../pages/account.test.ts); a short new one renders here.
    await page.getByLabel('Current password').fill('bob-builds-42');
    await page.getByLabel('New password', { exact: true }).fill('bob');
    await page.getByLabel('Repeat the new password').fill('bob');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#account-password-error').textContent()).toContain('at least 8 characters');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Current password').fill('bob-builds-42');
    await page.getByLabel('New password', { exact: true }).fill('bob-rebuilt-43');
    await page.getByLabel('Repeat the new password').fill('bob-rebuilt-43');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForURL(`${server.base}/account?done=password`);
    // This session goes on with the new password.
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Password saved');
    // Another browser signs in with the new password (the form posted through the app: the page harness's way).
    const other = new PageBrowser(server.h);
    await other.get('/login');
    const signedIn = await other.post('/login', { username: 'bob', password: 'bob-rebuilt-43' });
    expect([signedIn.status, signedIn.location]).toEqual([303, '/projects']);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/account`);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'account-phone');
    await page.context().close();
  });

});
