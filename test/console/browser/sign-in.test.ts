/**
 * Signing in and out of the console in chromium: password and token sign-in, the one generic message, sign-out
 * ending the session on the server, the failure limit, and a session that outlives a restart but not its idle time.
 */
import { describe, expect } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/harness.js';
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

  test('a wrong password and an unknown user get the same generic message, and no session', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    const messages: string[] = [];
    for (const [user, password] of [['ann', 'not-her-password'], ['nobody', 'ann-secret-42']] as const) {
      await page.goto(`${server.base}/login`);
      await page.getByLabel('Username or email').fill(user);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForLoadState();
      messages.push((await page.getByRole('alert').textContent()) ?? '');
    }
    expect(messages).toEqual(['Wrong username or password', 'Wrong username or password']);
    expect(await sessionCookie(context)).toBeUndefined();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'login-error-phone');
    await context.close();
  });

  test('an admin token signs in as that token; a client token is refused with the generic message', async ({ server }) => {
    const client = await server.h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['default'], environment: 'development' });
    const page = await browser().newPage();
    await page.goto(`${server.base}/login`);
    await page.getByLabel('API token', { exact: true }).fill(client.body.secret);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('cannot sign in');
    await page.getByLabel('API token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.waitForURL(`${server.base}/projects`);
    await expect.poll(() => page.locator('.user-name').textContent()).toBe('init-admin-token-1');
    await page.close();
  });

  test('sign-out ends the session on the server: the old cookie opens nothing, in the browser or raw', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    const cookie = await sessionCookie(context);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.locator('.user-menu summary').click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await expect.poll(() => page.getByRole('status').textContent()).toBe('You have signed out.');
    const raw = await fetch(`${server.base}/projects`, { headers: { cookie: `flagpole-session=${cookie}` }, redirect: 'manual' });
    expect(raw.status).toBe(303);
    expect(raw.headers.get('location')).toBe('/login');
    await context.addCookies([{ name: 'flagpole-session', value: cookie!, url: server.base }]);
    await page.goto(`${server.base}/projects`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  test('a session survives a restart of the server', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const page = await browser().newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    await server.restart();
    await page.goto(`${server.base}/projects`);
    expect(new URL(page.url()).pathname).toBe('/projects');
    await page.close();
  });

  test('a new password ends the sessions of the old one', async ({ server }) => {
    const id = await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const page = await browser().newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    expect((await server.h.json('POST', `/api/admin/user-admin/${id}/change-password`, { password: 'ann-other-secret' })).status).toBe(200);
    await page.goto(`${server.base}/projects`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.close();
  });
});

describe('limits and lifetimes', () => {
  const limited = consoleTest({ LOGIN_FAILURES_PER_USER: '3', LOGIN_FAILURES_PER_ADDRESS: '100' });
  limited('after 3 failures for one username, the 4th attempt is refused with 429, even with the right password', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const page = await browser().newPage();
    const statuses: number[] = [];
    for (const password of ['wrong-1-password', 'wrong-2-password', 'wrong-3-password', 'ann-secret-42']) {
      await page.goto(`${server.base}/login`);
      await page.getByLabel('Username or email').fill('ann');
      await page.getByLabel('Password', { exact: true }).fill(password);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      statuses.push(response.status());
      if (statuses.length === 4) expect(Number(await response.headerValue('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Too many failed sign-ins/);
    await page.close();
  });

  const idle = consoleTest({ SESSION_IDLE_MINUTES: '0.03' });
  idle('a session unused for longer than SESSION_IDLE_MINUTES ends', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42');
    const page = await browser().newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await page.goto(`${server.base}/projects`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.close();
  });
});
