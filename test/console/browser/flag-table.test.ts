/**
 * A project's flag table in chromium, for what only a browser shows: htmx swapping a row after a switch (and
 * putting a refused one back), the offer and its focus, live updates from another browser keeping focus and what
 * is typed, the sign-in redirect of an htmx request, axe and the phone width. The forms, filters and bulk bar are
 * the page harness's (`../pages/flag-table.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { untilState } from '../../helpers/wait.js';
import { consoleTest, createUserWithPassword, DESKTOP, feedListeners, PHONE, screenshot, scrollsSideways, seriousViolations, signedInContext, useBrowser, waitForLiveStreams, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const FLAGS = '/api/admin/projects/default/features';

/** Creates a flag through the admin API, with a standard strategy in each environment listed. */
async function flag(server: ConsoleServer, name: string, options: { type?: string; description?: string; strategyIn?: string[] } = {}): Promise<void> {
  const created = await server.h.json('POST', FLAGS, { name, type: options.type ?? 'release', description: options.description ?? '' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (const env of options.strategyIn ?? []) {
    const added = await server.h.json('POST', `${FLAGS}/${name}/environments/${env}/strategies`, { name: 'default' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
}

/** Whether the flag is on in the environment, read back through the admin API. */
async function enabledIn(server: ConsoleServer, name: string, env: string): Promise<boolean> {
  const res = await server.h.json('GET', `${FLAGS}/${name}`);
  return (res.body.environments as { name: string; enabled: boolean }[]).find((e) => e.name === env)!.enabled;
}

async function signedIn(server: ConsoleServer, rootRole = 1, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  const name = rootRole === 1 ? 'ann' : rootRole === 2 ? 'ed' : 'vic';
  await createUserWithPassword(server, name, `${name}-secret-42`, rootRole);
  return (await signedInContext(browser(), server, name, `${name}-secret-42`, { viewport })).newPage();
}

describe('the flag table', () => {
  test('an Admin switches a flag on and off; the API reads it back; names, axe, desktop and phone', async ({ server }) => {
    await flag(server, 'my-flag', { description: 'The new checkout flow', strategyIn: ['development', 'production'] });
    await flag(server, 'dark-mode', { type: 'experiment', strategyIn: ['development'] });
    await server.h.json('PUT', `${FLAGS}/dark-mode/tags`, { addedTags: [{ type: 'simple', value: 'ui' }], removedTags: [] });
    const page = await signedIn(server);
    await page.goto(`${server.base}/projects/default`);
    const toggle = page.getByRole('switch', { name: 'my-flag in development' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByRole('switch').count()).toBe(4);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-table-desktop');

    await toggle.click();
    await expect.poll(() => enabledIn(server, 'my-flag', 'development')).toBe(true);
    await expect.poll(() => page.getByRole('switch', { name: 'my-flag in development' }).isChecked()).toBe(true);
    expect(await enabledIn(server, 'my-flag', 'production')).toBe(false);
    // The answer replaced the row: focus stays on the switch, keyboard alone switches it back.
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")')).toBe('my-flag in development');
    // Pressed on the switch itself: the live stream may redraw the row once more in between (a new element).
    await page.getByRole('switch', { name: 'my-flag in development' }).press('Space');
    await expect.poll(() => enabledIn(server, 'my-flag', 'development')).toBe(false);
    await expect.poll(() => page.getByRole('switch', { name: 'my-flag in development' }).isChecked()).toBe(false);

    await page.setViewportSize(PHONE);
    await page.reload();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-table-phone');
    await page.context().close();
  });

  test('a refused switch shows the API\'s message next to the row and is put back', async ({ server }) => {
    await flag(server, 'my-flag', { strategyIn: ['development'] });
    const page = await signedIn(server);
    // Without its live updates (a connection that dropped), the page keeps the version it was loaded with.
    await page.route('**/projects/default/events', (route) => route.abort());
    await page.goto(`${server.base}/projects/default`);
    // Someone changes the flag after the page was loaded: the switch's If-Match no longer holds.
    await server.h.json('PATCH', `${FLAGS}/my-flag`, [{ op: 'replace', path: '/description', value: 'changed meanwhile' }]);
    await page.getByRole('switch', { name: 'my-flag in development' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('my-flag in development: If-Match does not match');
    expect(await page.getByRole('switch', { name: 'my-flag in development' }).isChecked()).toBe(false);
    expect(await enabledIn(server, 'my-flag', 'development')).toBe(false);
    // The row now carries the new version: the next switch goes through.
    await page.getByRole('switch', { name: 'my-flag in development' }).click();
    await expect.poll(() => enabledIn(server, 'my-flag', 'development')).toBe(true);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });

  test('switching on without a strategy offers one first: a 100% rollout, or the project\'s default strategy', async ({ server }) => {
    await flag(server, 'bare');
    await flag(server, 'other');
    const page = await signedIn(server);
    await page.goto(`${server.base}/projects/default`);
    await page.getByRole('switch', { name: 'bare in development' }).click();
    const offer = page.getByRole('group').filter({ hasText: 'has no enabled strategy in development' });
    await expect.poll(() => offer.count()).toBe(1);
    expect(await page.getByRole('switch', { name: 'bare in development' }).isChecked()).toBe(false);
    expect(await enabledIn(server, 'bare', 'development')).toBe(false);
    // The keyboard lands on the offer's first choice.
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Add a 100% rollout and switch on');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-table-offer-desktop');
    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'flag-table-offer-phone');
    await page.setViewportSize(DESKTOP);
    await offer.getByRole('button', { name: 'Add a 100% rollout and switch on' }).click();
    await expect.poll(() => enabledIn(server, 'bare', 'development')).toBe(true);
    await expect.poll(() => page.getByRole('switch', { name: 'bare in development' }).isChecked()).toBe(true);
    const strategies = (await server.h.json('GET', `${FLAGS}/bare/environments/development/strategies`)).body as { name: string; parameters: Record<string, string> }[];
    expect(strategies.map((s) => [s.name, s.parameters['rollout']])).toEqual([['flexibleRollout', '100']]);

    // With the project's default strategy for the environment, that is what is offered and added.
    await server.h.json('POST', '/api/admin/projects/default/environments/production/default-strategy', { name: 'default', title: 'Everyone' });
    await page.reload();
    await page.getByRole('switch', { name: 'other in production' }).click();
    const second = page.getByRole('group').filter({ hasText: 'has no enabled strategy in production' });
    await expect.poll(() => second.textContent()).toContain('default strategy for production (Everyone)');
    await second.getByRole('link', { name: 'Cancel' }).click();
    await expect.poll(() => second.count()).toBe(0);
    expect(await enabledIn(server, 'other', 'production')).toBe(false);
    await page.getByRole('switch', { name: 'other in production' }).click();
    await page.getByRole('button', { name: 'Add the default strategy and switch on' }).click();
    await expect.poll(() => enabledIn(server, 'other', 'production')).toBe(true);
    const added = (await server.h.json('GET', `${FLAGS}/other/environments/production/strategies`)).body as { name: string }[];
    expect(added.map((s) => s.name)).toEqual(['default']);
    await page.context().close();
  });

  test('live: a switch from a second browser shows on the first page without a reload, and what is typed stays', async ({ server }) => {
    await flag(server, 'my-flag', { strategyIn: ['development'] });
    await flag(server, 'other', { strategyIn: ['development'] });
    const first = await signedIn(server);
    const listeners = feedListeners(server);
    await first.goto(`${server.base}/projects/default`);
    await waitForLiveStreams(server, listeners);
    const search = first.getByRole('search').getByLabel('Search');
    await search.fill('half typed');
    await search.focus();
    await createUserWithPassword(server, 'eve', 'eve-secret-42', 2);
    const second = await (await signedInContext(browser(), server, 'eve', 'eve-secret-42')).newPage();
    await second.goto(`${server.base}/projects/default`);
    await second.getByRole('switch', { name: 'my-flag in development' }).click();
    await expect.poll(() => enabledIn(server, 'my-flag', 'development')).toBe(true);
    await expect.poll(() => first.getByRole('switch', { name: 'my-flag in development' }).isChecked(), untilState(25)).toBe(true);
    expect(await search.inputValue()).toBe('half typed');
    expect(await first.evaluate('document.activeElement && document.activeElement.id')).toBe('filter-q');
    // A change through the API reaches the page the same way; other rows are left alone.
    await server.h.json('POST', `${FLAGS}/other/environments/development/on`);
    await expect.poll(() => first.getByRole('switch', { name: 'other in development' }).isChecked(), untilState()).toBe(true);
    expect(await first.url()).toBe(`${server.base}/projects/default`);
    await second.context().close();
    await first.context().close();
  });

  test('live: a redraw of a row keeps focus on its focused switch, and a selected row stays selected', async ({ server }) => {
    await flag(server, 'my-flag', { strategyIn: ['development', 'production'] });
    await flag(server, 'other', { strategyIn: ['development'] });
    const page = await signedIn(server);
    const listeners = feedListeners(server);
    await page.goto(`${server.base}/projects/default`);
    await waitForLiveStreams(server, listeners);
    const focusedLabel = () => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")');
    await page.getByRole('switch', { name: 'my-flag in production' }).focus();
    // The row is drawn again for a change of its flag in another environment.
    const before = await page.locator('tbody#row-my-flag').elementHandle();
    expect((await server.h.json('POST', `${FLAGS}/my-flag/environments/development/on`)).status).toBe(200);
    await expect.poll(() => page.getByRole('switch', { name: 'my-flag in development' }).isChecked(), untilState()).toBe(true);
    expect(await before!.evaluate((row) => (row as unknown as { isConnected: boolean }).isConnected)).toBe(false);
    expect(await focusedLabel()).toBe('my-flag in production');
    // Keyboard alone goes on from there, once htmx has settled the new row (a person's key comes later than 20 ms).
    await expect.poll(() => page.evaluate('document.querySelector(".htmx-settling, .htmx-swapping, .htmx-request") === null')).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => enabledIn(server, 'my-flag', 'production')).toBe(true);
    // A row chosen for the bulk bar keeps its selection (and focus) through a redraw.
    const select = page.getByRole('checkbox', { name: 'Select other' });
    await select.check();
    expect((await server.h.json('POST', `${FLAGS}/other/environments/development/on`)).status).toBe(200);
    await expect.poll(() => page.getByRole('switch', { name: 'other in development' }).isChecked(), untilState()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Select other' }).isChecked()).toBe(true);
    expect(await focusedLabel()).toBe('Select other');
    await page.context().close();
  });

  test('a switch sent after the session ended goes to the sign-in page, and back to the table afterwards', async ({ server }) => {
    await flag(server, 'my-flag', { strategyIn: ['development'] });
    const page = await signedIn(server);
    await page.goto(`${server.base}/projects/default?q=my`);
    await page.context().clearCookies();
    await page.getByRole('switch', { name: 'my-flag in development' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/projects/default?q=my');
    expect(await enabledIn(server, 'my-flag', 'development')).toBe(false);
    await page.getByLabel('Username or email').fill('ann');
    await page.getByLabel('Password', { exact: true }).fill('ann-secret-42');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${server.base}/projects/default?q=my`);
    expect(await page.getByRole('switch', { name: 'my-flag in development' }).isChecked()).toBe(false);
    await page.context().close();
  });

});
