/**
 * A project's settings in chromium, for what only a browser shows: each form filled and sent, the confirmation
 * panels, axe and the phone width. The flows and refusals are the page harness's (`../pages/project-
 * settings.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

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
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42', SETTINGS);
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
    await page.context().close();
  });

});
