/**
 * A person's own page in chromium: changing their password (the current one first), personal access tokens (the
 * secret shown once, working on the admin API, revoked after a confirmation), and signing out of every session,
 * which ends another browser's session too; accessibility and both widths.
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser } from './browser.js';

const browser = useBrowser();
const test = consoleTest({ LOG_LEVEL: 'debug' });

describe('your account', () => {
  test('a Viewer opens it from the user menu and changes their password; desktop and phone', async ({ server }) => {
    await createUserWithPassword(server, 'bob', 'bob-builds-42', 3);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'bob', 'bob-builds-42');
    await page.locator('.user-menu summary').click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL(`${server.base}/account`);
    expect(await page.title()).toBe('Your account · flagpole');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-desktop');

    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('bob-rebuilt-43');
    await page.getByLabel('Repeat the new password').fill('bob-rebuilt-43');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#account-currentPassword-error').textContent()).toBe('This is not your current password');
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
    const other = await browser().newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, server, 'bob', 'bob-rebuilt-43');
    expect(new URL(otherPage.url()).pathname).toBe('/projects');
    await other.close();

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/account`);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'account-phone');
    await context.close();
  });

  test('a personal access token is shown once, acts as its person on the admin API, and is revoked after a confirmation', async ({ server }) => {
    await createUserWithPassword(server, 'bob', 'bob-builds-42', 2);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'bob', 'bob-builds-42');
    await page.goto(`${server.base}/account`);
    await page.getByLabel('Name', { exact: true }).fill('laptop-cli');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForLoadState();
    const secret = await page.getByLabel('Token secret').inputValue();
    expect(secret).toMatch(/^user:[0-9a-f]{56}$/);
    expect(await page.locator('.secret-once').textContent()).toContain('will not be shown again');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-token-desktop');
    const projects = await server.h.json('GET', '/api/admin/projects', undefined, { token: secret });
    expect(projects.status).toBe(200);
    // A reload is a GET of the page: the secret is gone.
    const reloaded = await page.goto(`${server.base}/account`);
    const html = await reloaded!.text();
    expect(html).toContain('laptop-cli');
    expect(html).not.toContain(secret.slice(5));
    expect(JSON.stringify(server.h.logs())).not.toContain(secret.slice(5));

    const row = page.getByRole('row').filter({ hasText: 'laptop-cli' });
    await row.getByText('Revoke…').click();
    expect(await page.getByRole('form', { name: 'Revoke laptop-cli' }).textContent()).toContain('Revoke laptop-cli?');
    await page.getByRole('button', { name: 'Revoke laptop-cli', exact: true }).click();
    await page.waitForURL(`${server.base}/account?done=revoked`);
    expect(await page.getByText('You have no personal tokens.').count()).toBe(1);
    expect((await server.h.json('GET', '/api/admin/projects', undefined, { token: secret })).status).toBe(401);
    await context.close();
  });

  test('signing out everywhere ends this session and another browser\'s', async ({ server }) => {
    await createUserWithPassword(server, 'bob', 'bob-builds-42', 3);
    const first = await browser().newContext({ viewport: PHONE });
    const second = await browser().newContext({ viewport: DESKTOP });
    const page = await first.newPage();
    const elsewhere = await second.newPage();
    await signIn(page, server, 'bob', 'bob-builds-42');
    await signIn(elsewhere, server, 'bob', 'bob-builds-42');
    await page.goto(`${server.base}/account`);
    await page.getByText('Sign out everywhere…').click();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-sign-out-phone');
    await page.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
    await page.waitForURL(`${server.base}/login?signed-out`);
    expect(await sessionCookie(first)).toBeUndefined();
    await elsewhere.goto(`${server.base}/projects`);
    expect(new URL(elsewhere.url()).pathname).toBe('/login');
    expect(server.h.registry.sessions.size).toBe(0);
    await first.close();
    await second.close();
  });

  test('an API token has no account page', async ({ server }) => {
    const page = await browser().newPage();
    await page.goto(`${server.base}/login`);
    await page.getByLabel('API token', { exact: true }).fill('*:*.test-admin-token-0123456789');
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.waitForURL(`${server.base}/projects`);
    const response = await page.goto(`${server.base}/account`);
    expect(response?.status()).toBe(403);
    await page.close();
  });
});
