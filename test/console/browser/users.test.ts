/**
 * The user pages in chromium, for what only a browser shows: the new-user form at both widths, and the one-time
 * link's copy button and set-password page (`static/set-password.js`). The flows are the page harness's
 * (`../pages/users.test.ts`).
 */
import { describe, expect } from 'vitest';

import { Browser as PageBrowser } from '../page-harness.js';
import { consoleTest, createUserWithPassword, type ConsoleServer, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signedInContext, useBrowser } from './browser.js';

const browser = useBrowser();
// Debug lines too: a secret must be absent from every line the service writes.
const test = consoleTest({ LOG_LEVEL: 'debug' });

type Server = ConsoleServer;

const userNamed = async (server: Server, username: string) =>
  ((await server.h.json('GET', '/api/admin/user-admin')).body.users as { id: number; username: string | null; rootRole: number }[]).find((u) => u.username === username);

/** Signs in a fresh context as an Admin and opens `path`. */
async function adminPage(server: Server, path: string) {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  const context = await signedInContext(browser(), server, 'ann', 'ann-secret-42');
  const page = await context.newPage();
  await page.goto(`${server.base}${path}`);
  return { context, page };
}

describe('the user list', () => {
  test('an Admin creates a user with a password, who then signs in; desktop and phone', async ({ server }) => {
    const { context, page } = await adminPage(server, '/admin/users');
    expect(await page.title()).toBe('Users · flagpole');
    expect(await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('New user').click();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'users-new-desktop');
    await page.getByLabel('Name', { exact: true }).fill('Bob Builder');
    await page.getByLabel('Username').fill('bob');
    await page.getByLabel('Root role').selectOption({ label: 'Editor' });
    await page.getByLabel('Set it now').check();
    await page.getByLabel('Password (when set now)').fill('bob-builds-42');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.waitForURL(/\/admin\/users\/\d+\?done=created$/);
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('User created.');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Bob Builder');
    expect(await userNamed(server, 'bob')).toMatchObject({ rootRole: 2 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-desktop');

    // Bob signs in with that password (through the app, the page harness's way).
    expect((await new PageBrowser(server.h).signIn('bob', 'bob-builds-42')).text('.user-name')).toBe('Bob Builder');

    await page.goto(`${server.base}/admin/users`);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Bob Builder' }) });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Editor');
    // Bob signed in: his last activity is known.
    expect(await row.getByRole('cell').nth(5).locator('time').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'users-desktop');
    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'users-phone');
    await page.getByRole('link', { name: 'Bob Builder' }).click();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'user-phone');
    await context.close();
  });

});

describe('the one-time password link', () => {
  test('is shown once, survives a restart, sets a password under the API\'s rules and signs in, then is refused', async ({ server }) => {
    const { context, page } = await adminPage(server, '/admin/users');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    await page.getByText('New user').click();
    await page.getByLabel('Name', { exact: true }).fill('Cara');
    await page.getByLabel('Username').fill('cara');
    await page.getByLabel('Make a one-time link').check();
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.waitForLoadState();
    const field = page.getByLabel('Link to set a password');
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${server.base}/set-password#[A-Za-z0-9_-]{43}$`));
    const secret = link.split('#')[1]!;
    expect(await field.getAttribute('readonly')).not.toBeNull();
    expect(await page.locator('.secret-once').textContent()).toContain('will not be shown again');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#secret-value-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-link-desktop');
    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'user-link-phone');
    // A reload (a GET of the page) never shows it again: the page harness's (../pages/users.test.ts).

    // Made durable: it works after a restart.
    await server.restart();
    const fresh = await browser().newContext({ viewport: PHONE });
    const linkPage = await fresh.newPage();
    await linkPage.goto(link);
    await expect.poll(() => linkPage.getByRole('heading', { level: 1 }).textContent()).toBe('Choose a password');
    // The secret left the address (and the history) before the form went on.
    expect(linkPage.url()).toBe(`${server.base}/set-password`);
    expect(await linkPage.locator('.auth-card').textContent()).toContain('cara');
    expect(await seriousViolations(linkPage)).toEqual([]);
    await screenshot(linkPage, 'set-password-phone');
    // A password too short or too common is refused under the API's rules: the page harness's (../pages/users.test.ts).
    await linkPage.getByLabel('New password').fill('cara-chooses-44');
    await linkPage.getByLabel('Repeat it').fill('cara-chooses-44');
    await linkPage.getByRole('button', { name: 'Save password and sign in' }).click();
    await linkPage.waitForURL(`${server.base}/projects`);
    await expect.poll(() => linkPage.locator('.user-name').textContent()).toBe('Cara');
    await fresh.close();

    // Used once: the same link now shows the page of a link that no longer works.
    const later = await browser().newContext({ viewport: DESKTOP });
    const laterPage = await later.newPage();
    await laterPage.goto(link);
    await expect.poll(() => laterPage.getByRole('heading', { level: 1 }).textContent()).toBe('This link no longer works');
    expect(await laterPage.getByRole('alert').textContent()).toContain('expired or has already been used');
    expect(await seriousViolations(laterPage)).toEqual([]);
    await screenshot(laterPage, 'set-password-ended-desktop');
    // She signs in with the password she chose (through the app, the page harness's way).
    const cara = new PageBrowser(server.h);
    await cara.get('/login');
    const signedIn = await cara.post('/login', { username: 'cara', password: 'cara-chooses-44' });
    expect([signedIn.status, signedIn.location]).toEqual([303, '/projects']);
    await later.close();

    expect(JSON.stringify(server.h.logs())).not.toContain(secret);
    await context.close();
  });

});
