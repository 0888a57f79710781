/**
 * Signing in in chromium, for what only a browser shows: the cookie a browser keeps, the sign-in page's axe at
 * both widths. The rules (tokens, sign-out, limits, lifetimes) are the page harness's (`../pages/sign-
 * in.test.ts`).
 */
import { describe, expect } from 'vitest';

import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

describe('sign-in', () => {
  test('a user signs in with their password and lands on the projects, named in the header', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.base}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'login-desktop');
    await signIn(page, server, 'ann', 'ann-secret-42');
    expect(new URL(page.url()).pathname).toBe('/projects');
    await expect.poll(() => page.locator('.user-name').textContent()).toBe('Ann');
    expect(await page.title()).toBe('Projects · flagpole');
    await context.close();
  });

  test('a wrong password gets the generic message and no session, at phone width', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    // An unknown user gets the same message: the page harness's (../pages/sign-in.test.ts).
    await page.goto(`${server.base}/login`);
    await page.getByLabel('Username or email').fill('ann');
    await page.getByLabel('Password', { exact: true }).fill('not-her-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong username or password');
    expect(await sessionCookie(context)).toBeUndefined();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'login-error-phone');
    await context.close();
  });
});
