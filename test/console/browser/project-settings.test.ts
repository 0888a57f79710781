/**
 * A project's settings page in chromium: an Owner renames the project, adds a member and changes and removes
 * them, sets a default strategy, disconnects and connects an environment (each read back through the admin
 * API) and sees the project's segments; the last Owner cannot leave or be demoted (the project's message);
 * a project with flags cannot be deleted, an emptied one can; a Viewer reads without controls and is refused
 * the forms. Accessibility and both widths.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const SETTINGS = '/projects/checkout/settings';
const members = async (server: ConsoleServer) =>
  ((await server.h.json('GET', '/api/admin/projects/checkout/access')).body.users as { username: string; roleId: number }[]).map((u) => [u.username, u.roleId]);
const overview = async (server: ConsoleServer) => (await server.h.json('GET', '/api/admin/projects/checkout')).body;
const memberRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });

/** Ann (root Admin) the only Owner of project `checkout` with one flag, Bob (Editor) not a member. */
async function given(server: ConsoleServer): Promise<void> {
  const ann = await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  await createUserWithPassword(server, 'bob', 'bob-secret-42', 2);
  expect((await server.h.json('POST', '/api/admin/projects', { id: 'checkout', name: 'Checkout' })).status).toBe(201);
  // The admin token's project gets the lowest-id root Admin as its first Owner: Ann takes over.
  const [first] = (await server.h.json('GET', '/api/admin/projects/checkout/access')).body.users as { id: number }[];
  expect((await server.h.json('POST', `/api/admin/projects/checkout/users/${ann}/roles/4`)).status).toBe(200);
  expect((await server.h.json('DELETE', `/api/admin/projects/checkout/users/${first!.id}/roles/4`)).status).toBe(200);
  expect((await server.h.json('POST', '/api/admin/projects/checkout/features', { name: 'new-cart' })).status).toBe(201);
}

describe('the project settings page', () => {
  test('an Owner renames, manages members, sets a default strategy and reconnects an environment; desktop and phone', async ({ server }) => {
    await given(server);
    await server.h.json('POST', '/api/admin/segments', { name: 'checkout-beta', project: 'checkout', constraints: [] });
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, server, 'ann', 'ann-secret-42');
    await page.goto(`${server.base}${SETTINGS}`);
    expect(await page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('link', { name: 'checkout-beta' }).getAttribute('href')).toMatch(/^\/admin\/segments\/\d+$/);

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Checkout and pay');
    await page.getByLabel('Description (optional)').fill('Cart, payment, confirmation');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/done=saved/);
    expect(await overview(server)).toMatchObject({ name: 'Checkout and pay', description: 'Cart, payment, confirmation' });

    await page.getByLabel('User', { exact: true }).fill('bob');
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Member' });
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.waitForURL(/done=added/);
    expect(await members(server)).toEqual([['ann', 4], ['bob', 5]]);
    await page.getByLabel('Role of Bob').selectOption({ label: 'Owner' });
    await page.getByRole('button', { name: 'Save the role of Bob' }).click();
    await page.waitForURL(/done=changed/);
    expect(await members(server)).toEqual([['ann', 4], ['bob', 4]]);
    await memberRow(page, 'Bob').locator('summary').click();
    await page.getByRole('button', { name: 'Remove Bob' }).click();
    await page.waitForURL(/done=removed/);
    expect(await members(server)).toEqual([['ann', 4]]);

    const development = page.locator('#project-env-development');
    await development.getByText('Edit default strategy').click();
    await development.getByLabel('Rollout (%)').fill('40');
    await development.getByRole('combobox', { name: 'Stickiness', exact: true }).selectOption('userId');
    await development.getByLabel('Group id').fill('checkout-group');
    await development.getByRole('button', { name: 'Save default strategy for development' }).click();
    await page.waitForURL(/done=strategy/);
    const environments = (await overview(server)).environments as { environment: string; defaultStrategy: { name: string; parameters: Record<string, string> } | null }[];
    expect(environments.find((e) => e.environment === 'development')?.defaultStrategy).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '40', stickiness: 'userId', groupId: 'checkout-group' } });
    expect(await page.locator('#project-env-development').textContent()).toContain('a gradual rollout to 40%');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'project-settings-desktop');

    await page.locator('#project-env-production summary', { hasText: 'Disconnect' }).click();
    await expect.poll(() => page.getByText('Disconnect production from Checkout and pay? The settings of all 1 flag there').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Disconnect production' }).click();
    await page.waitForURL(/done=disconnected/);
    expect(((await overview(server)).environments as { environment: string }[]).map((e) => e.environment)).toEqual(['development']);
    await page.getByRole('combobox', { name: 'Connect an environment' }).selectOption('production');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/done=connected/);
    expect(((await overview(server)).environments as { environment: string }[]).map((e) => e.environment)).toEqual(['development', 'production']);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}${SETTINGS}`);
    await screenshot(page, 'project-settings-phone');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  test('the last Owner can be neither demoted nor removed; a project with flags is not deleted, an emptied one is', async ({ server }) => {
    await given(server);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, server, 'ann', 'ann-secret-42');
    await page.goto(`${server.base}${SETTINGS}`);
    await page.getByLabel('Role of Ann').selectOption({ label: 'Member' });
    await page.getByRole('button', { name: 'Save the role of Ann' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#members [role="alert"]').textContent()).toBe('A project must have at least one owner');
    expect(await members(server)).toEqual([['ann', 4]]);
    await screenshot(page, 'project-settings-last-owner-desktop');
    await memberRow(page, 'Ann').locator('summary').click();
    await page.getByRole('button', { name: 'Remove Ann' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#members [role="alert"]').textContent()).toBe('A project must have at least one owner');
    expect(await members(server)).toEqual([['ann', 4]]);

    await page.getByText('Delete project…').click();
    await expect.poll(() => page.getByText('Delete Checkout for good? Its 1 active flag and 0 archived flags').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Delete Checkout' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#delete [role="alert"]').textContent()).toContain('flag');
    expect((await server.h.json('GET', '/api/admin/projects/checkout')).status).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'project-settings-delete-refused-desktop');

    expect((await server.h.json('DELETE', '/api/admin/projects/checkout/features/new-cart')).status).toBe(202);
    await page.goto(`${server.base}${SETTINGS}`);
    await page.getByText('Delete project…').click();
    await expect.poll(() => page.getByText('Delete Checkout for good? Its 0 active flags and 1 archived flag').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Delete Checkout' }).click();
    await page.waitForURL(`${server.base}/projects`);
    expect((await server.h.json('GET', '/api/admin/projects/checkout')).status).toBe(404);
    await context.close();
  });

  test('a Viewer reads the settings without controls, and a post is refused', async ({ server }) => {
    await given(server);
    await createUserWithPassword(server, 'vic', 'vic-secret-42', 3);
    const context = await browser().newContext({ viewport: PHONE });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, server, 'vic', 'vic-secret-42');
    await page.goto(`${server.base}${SETTINGS}`);
    expect(await page.locator('main form[method="post"]').count()).toBe(0);
    expect(await page.locator('main summary').count()).toBe(0);
    expect(await page.getByText('You can read these settings').count()).toBe(1);
    expect(await memberRow(page, 'Ann').textContent()).toContain('Owner');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'project-settings-viewer-phone');
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers'))!)['X-CSRF-Token'] as string;
    const refused = await fetch(`${server.base}${SETTINGS}`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: `flagpole-session=${await sessionCookie(context)}`, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, name: 'Taken over' }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('You may not do this');
    expect((await overview(server)).name).toBe('Checkout');
    await context.close();
  });
});
