/**
 * The user pages in chromium: creating a user with a password (who then signs in), the one-time link end to end
 * (shown once, durable across a restart, used once, an expired one refused), a root role change read back
 * through the API, the last root Admin's refusals, deletion after a confirmation, search and paging, and a
 * Viewer refused; accessibility and both widths on every page.
 */
import { describe, expect } from 'vitest';
import { createPasswordLink } from '../../src/use-cases/password-links.use-cases.js';
import { consoleTest, createUserWithPassword, type ConsoleServer, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signIn, useBrowser } from './browser.js';

const browser = useBrowser();
// Debug lines too: a secret must be absent from every line the service writes.
const test = consoleTest({ LOG_LEVEL: 'debug' });

type Server = ConsoleServer;

const userNamed = async (server: Server, username: string) =>
  ((await server.h.json('GET', '/api/admin/user-admin')).body.users as { id: number; username: string | null; rootRole: number }[]).find((u) => u.username === username);

/** Signs in a fresh context as an Admin and opens `path`. */
async function adminPage(server: Server, path: string, viewport: { width: number; height: number } = DESKTOP) {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  const context = await browser().newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, server, 'ann', 'ann-secret-42');
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

    const bob = await browser().newContext({ viewport: PHONE });
    const bobPage = await bob.newPage();
    await signIn(bobPage, server, 'bob', 'bob-builds-42');
    await expect.poll(() => bobPage.locator('.user-name').textContent()).toBe('Bob Builder');
    await bob.close();

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

  test('a refused new user shows the API\'s message next to the field and creates nothing', async ({ server }) => {
    const { context, page } = await adminPage(server, '/admin/users');
    await page.getByText('New user').click();
    await page.getByLabel('Username').fill('bob');
    await page.getByLabel('Set it now').check();
    await page.getByLabel('Password (when set now)').fill('bob');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#new-user-password-error').textContent()).toContain('at least 8 characters');
    expect(await page.getByLabel('Username').inputValue()).toBe('bob');
    await page.getByLabel('Username').fill('ann');
    await page.getByLabel('Password (when set now)').fill('another-fine-one');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#new-user-username-error').textContent()).toContain('already exists');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await userNamed(server, 'bob')).toBeUndefined();
    await context.close();
  });

  test('finds users by name, username or email and pages by the server', async ({ server }) => {
    for (let i = 1; i <= 60; i++) {
      const n = String(i).padStart(2, '0');
      expect((await server.h.json('POST', '/api/admin/user-admin', { username: `user-${n}`, email: `person${n}@example.com`, name: `Person ${n}` })).status).toBe(201);
    }
    const { context, page } = await adminPage(server, '/admin/users');
    expect(await page.locator('.pager-status').textContent()).toBe('1–50 of 62 users');
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(`${server.base}/admin/users?page=2`);
    expect(await page.locator('tbody tr').count()).toBe(12);
    await page.getByLabel('Find users').fill('PERSON07@example');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=PERSON07/);
    expect(await page.locator('tbody tr th').allTextContents()).toEqual(['Person 07']);
    await context.close();
  });

  test('a Viewer opening the user pages gets the "you may not" page', async ({ server }) => {
    await createUserWithPassword(server, 'vic', 'vic-secret-42', 3);
    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, server, 'vic', 'vic-secret-42');
    for (const path of ['/admin/users', '/admin/users/1']) {
      const response = await page.goto(`${server.base}${path}`);
      expect(response?.status()).toBe(403);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You may not open this page');
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'users-refused-phone');
    await context.close();
  });
});

describe('one user', () => {
  test('a root role change is read back through the API; the last root Admin keeps the role and is not deleted', async ({ server }) => {
    const { context, page } = await adminPage(server, '/admin/users/1');
    // User 1 (`admin`, made at first start) becomes a Viewer: Ann is then the only root Admin.
    await page.getByLabel('Role in every project').selectOption({ label: 'Viewer' });
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.waitForURL(`${server.base}/admin/users/1?done=role`);
    expect((await server.h.json('GET', '/api/admin/user-admin/1')).body.rootRole).toBe(3);

    const ann = (await userNamed(server, 'ann'))!;
    await page.goto(`${server.base}/admin/users/${ann.id}`);
    await page.getByLabel('Role in every project').selectOption({ label: 'Editor' });
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#user-role-error').textContent()).toContain('last root Admin');
    expect(await page.getByLabel('Role in every project').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Delete user…').click();
    expect(await page.getByRole('form', { name: 'Delete Ann' }).textContent()).toContain('Delete Ann?');
    await page.getByRole('button', { name: 'Delete Ann' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain(`User ${ann.id} is the last root Admin`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-last-admin-desktop');
    expect((await server.h.json('GET', `/api/admin/user-admin/${ann.id}`)).body.rootRole).toBe(1);
    await context.close();
  });

  test('a user is deleted after a confirmation naming them', async ({ server }) => {
    const bobId = await createUserWithPassword(server, 'bob', 'bob-builds-42', 2);
    const { context, page } = await adminPage(server, `/admin/users/${bobId}`);
    await page.getByText('Delete user…').click();
    expect(await page.getByRole('form', { name: 'Delete Bob' }).textContent()).toContain('personal access tokens are deleted with them');
    await page.getByRole('button', { name: 'Delete Bob' }).click();
    await page.waitForURL(`${server.base}/admin/users?done=deleted`);
    expect((await server.h.json('GET', `/api/admin/user-admin/${bobId}`)).status).toBe(404);
    await context.close();
  });

  test('an admin sets a password; the person\'s old one stops working', async ({ server }) => {
    const bobId = await createUserWithPassword(server, 'bob', 'bob-builds-42', 3);
    const { context, page } = await adminPage(server, `/admin/users/${bobId}`);
    await page.getByLabel('New password').fill('bob-rebuilt-43');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(`${server.base}/admin/users/${bobId}?done=password`);
    const bob = await browser().newContext();
    const bobPage = await bob.newPage();
    await bobPage.goto(`${server.base}/login`);
    await bobPage.getByLabel('Username or email').fill('bob');
    await bobPage.getByLabel('Password', { exact: true }).fill('bob-builds-42');
    await bobPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => bobPage.getByRole('alert').textContent()).toBe('Wrong username or password');
    await signIn(bobPage, server, 'bob', 'bob-rebuilt-43');
    expect(new URL(bobPage.url()).pathname).toBe('/projects');
    await bob.close();
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
    // A reload (a GET of the page) never shows it again.
    const cara = (await userNamed(server, 'cara'))!;
    const again = await page.goto(`${server.base}/admin/users/${cara.id}`);
    expect(await again!.text()).not.toContain(secret);
    expect(await page.locator('dl.facts').textContent()).toContain('Link not used yet');

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
    await linkPage.getByLabel('New password').fill('cara');
    await linkPage.getByLabel('Repeat it').fill('cara');
    await linkPage.getByRole('button', { name: 'Save password and sign in' }).click();
    await linkPage.waitForLoadState();
    await expect.poll(() => linkPage.locator('#password-error').textContent()).toContain('at least 8 characters');
    await linkPage.getByLabel('New password').fill('password123');
    await linkPage.getByLabel('Repeat it').fill('password123');
    await linkPage.getByRole('button', { name: 'Save password and sign in' }).click();
    await linkPage.waitForLoadState();
    await expect.poll(() => linkPage.locator('#password-error').textContent()).toContain('most common passwords');
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
    await signIn(laterPage, server, 'cara', 'cara-chooses-44');
    expect(new URL(laterPage.url()).pathname).toBe('/projects');
    await later.close();

    expect(JSON.stringify(server.h.logs())).not.toContain(secret);
    await context.close();
  });

  test('an expired link is refused with the same clear page, and sets nothing', async ({ server }) => {
    const id = (await server.h.json('POST', '/api/admin/user-admin', { username: 'dan' })).body.id as number;
    const made = await createPasswordLink(server.h.registry, server.h.tokenHasher, { userId: id }, { kind: 'admin', name: 'test' }, Date.now() - 25 * 3_600_000);
    if (!made.ok) throw new Error(made.error.message);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.base}/set-password`);
    await screenshot(page, 'set-password-landing-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    // Without a fragment, the person can paste the code by hand.
    await page.getByLabel('Code from your link').fill(made.value.secret);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('This link no longer works');
    expect(server.h.registry.service.state.passwords[String(id)]).toBeUndefined();
    await context.close();
  });
});
