/**
 * A project's flag table in chromium: switching a flag (read back through the admin API), a refusal, the
 * default-strategy offer, search, filters, sort and pages in the URL, the bulk bar, what a Viewer sees, the
 * switches' accessible names, accessibility and the phone width.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, feedListeners, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser, waitForLiveStreams, type ConsoleServer } from './browser.js';

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
  const context = await browser().newContext({ viewport });
  const page = await context.newPage();
  // A step that cannot happen fails on its own locator, well before the test's timeout.
  page.setDefaultTimeout(8000);
  await signIn(page, server, name, `${name}-secret-42`);
  return page;
}

/** The rows' flag names, in order. */
const names = (page: Page) => page.locator('tbody.flag-row').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { flag: string } }).dataset.flag));

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

  test('search, filters, sort and pages are the URL, and the rows follow it', async ({ server }) => {
    for (let k = 0; k < 12; k += 1) {
      await flag(server, `flag-${String(k).padStart(2, '0')}`, { type: k % 3 === 0 ? 'experiment' : 'release', description: k % 2 === 0 ? 'checkout step' : 'search box', strategyIn: k < 4 ? ['development'] : [] });
    }
    await server.h.json('POST', `/api/admin/projects/default/bulk_features/environments/development/on`, { features: ['flag-00', 'flag-02'] });
    const page = await signedIn(server);
    // Flags made in the same millisecond tie on "Created": the pages are checked in name order.
    await page.goto(`${server.base}/projects/default?limit=5&sort=name`);
    expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    expect(await names(page)).toEqual(['flag-00', 'flag-01', 'flag-02', 'flag-03', 'flag-04']);
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/offset=5/);
    expect(await names(page)).toEqual(['flag-05', 'flag-06', 'flag-07', 'flag-08', 'flag-09']);
    expect(await page.getByRole('status').filter({ hasText: 'of 12 flags' }).textContent()).toBe('6–10 of 12 flags');

    // A column header sorts the other way and goes back to the first page.
    await page.getByRole('link', { name: 'Name' }).click();
    await page.waitForURL((url) => url.searchParams.get('order') === 'desc');
    expect(new URL(page.url()).searchParams.get('offset')).toBeNull();
    expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    expect(await names(page)).toEqual(['flag-11', 'flag-10', 'flag-09', 'flag-08', 'flag-07']);
    await page.getByRole('link', { name: 'Created' }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === null);
    expect(await page.getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBeNull();
    await page.goto(`${server.base}/projects/default?sort=name&order=desc`);

    await page.getByRole('search').getByLabel('Search').fill('Checkout');
    await page.getByRole('search').getByLabel('Type').selectOption('experiment');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'Checkout');
    const url = new URL(page.url());
    expect(url.searchParams.get('type')).toBe('experiment');
    expect(url.searchParams.get('sort')).toBe('name');
    // 0, 6 (even: checkout; multiples of 3: experiment), name descending.
    expect(await names(page)).toEqual(['flag-06', 'flag-00']);

    // A shared link shows the same view; the enabled filter narrows to what is on.
    await page.goto(`${server.base}/projects/default?q=checkout&enabled=development:on&sort=name`);
    expect(await names(page)).toEqual(['flag-00', 'flag-02']);
    expect(await page.getByLabel('Enabled').inputValue()).toBe('development:on');
    await page.getByRole('link', { name: 'Clear' }).first().click();
    await page.waitForURL((u) => u.searchParams.get('q') === null);
    expect((await names(page)).length).toBe(12);

    await page.goto(`${server.base}/projects/default?q=nothing-like-this`);
    expect(await page.getByRole('heading', { name: 'No flags match' }).count()).toBe(1);
    const bad = await page.goto(`${server.base}/projects/default?sort=colour`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toContain('sort');
    await page.context().close();
  });

  test('the bulk bar switches, marks stale and archives the selected flags', async ({ server }) => {
    for (const name of ['alpha', 'beta', 'gamma']) await flag(server, name, { strategyIn: ['production'] });
    const page = await signedIn(server, 2);
    await page.goto(`${server.base}/projects/default`);
    await page.getByRole('checkbox', { name: 'Select alpha' }).check();
    await page.getByRole('checkbox', { name: 'Select gamma' }).check();
    await page.getByLabel('Environment').selectOption('production');
    await page.getByRole('button', { name: 'Switch on' }).click();
    await page.waitForURL(/done=on/);
    expect(await page.getByRole('status').filter({ hasText: 'Switched' }).textContent()).toBe('Switched 2 flags on in production.');
    expect([await enabledIn(server, 'alpha', 'production'), await enabledIn(server, 'beta', 'production'), await enabledIn(server, 'gamma', 'production')]).toEqual([true, false, true]);
    expect(await page.getByRole('switch', { name: 'alpha in production' }).isChecked()).toBe(true);

    await page.getByRole('checkbox', { name: 'Select beta' }).check();
    await page.getByRole('button', { name: 'Mark stale' }).click();
    await page.waitForURL(/done=stale/);
    expect((await server.h.json('GET', `${FLAGS}/beta`)).body.stale).toBe(true);
    expect(await page.locator('tbody[data-flag="beta"] .mark').textContent()).toBe('Stale');

    await page.getByRole('checkbox', { name: 'Select gamma' }).check();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.waitForURL(/done=archive/);
    expect((await server.h.json('GET', `${FLAGS}/gamma`)).body.archived).toBe(true);
    expect(await names(page)).toEqual(['beta', 'alpha']);
    await page.context().close();
  });

  test('a Viewer sees the table with no working switch, no bulk bar and no new-flag form; a post is refused', async ({ server }) => {
    await flag(server, 'my-flag', { strategyIn: ['development'] });
    const page = await signedIn(server, 3);
    await page.goto(`${server.base}/projects/default`);
    const toggle = page.getByRole('switch', { name: 'my-flag in development' });
    expect(await toggle.isDisabled()).toBe(true);
    expect(await page.locator('input[role="switch"]:not([disabled])').count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Select my-flag' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Switch on' }).count()).toBe(0);
    expect(await page.getByText('New flag', { exact: true }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers'))!)['X-CSRF-Token'] as string;
    const refused = await fetch(`${server.base}/projects/default/rows/my-flag/environments/development/toggle`, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: `flagpole-session=${await sessionCookie(page.context())}`, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, enabled: 'on' }),
    });
    expect(refused.status).toBe(403);
    expect(await enabledIn(server, 'my-flag', 'development')).toBe(false);
    await page.context().close();
  });

  test('an empty project says how to start, and the new-flag form creates a flag', async ({ server }) => {
    const page = await signedIn(server);
    await page.goto(`${server.base}/projects/default`);
    expect(await page.getByRole('heading', { name: 'No flags yet' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-table-empty-desktop');
    await page.getByText('New flag', { exact: true }).click();
    await page.getByRole('form', { name: 'New flag' }).getByLabel('Name').fill('bad name');
    await page.getByRole('button', { name: 'Create flag' }).click();
    await expect.poll(() => page.locator('#flag-name-error').textContent()).toContain('name');
    await page.getByRole('form', { name: 'New flag' }).getByLabel('Name').fill('fresh-flag');
    await page.getByRole('form', { name: 'New flag' }).getByLabel('Type').selectOption('kill-switch');
    await page.getByRole('button', { name: 'Create flag' }).click();
    await page.waitForURL(`${server.base}/projects/default/features/fresh-flag`);
    expect((await server.h.json('GET', `${FLAGS}/fresh-flag`)).body.type).toBe('kill-switch');
    await page.context().close();
  });

  test('live: a switch from a second browser shows on the first page within a second, without a reload, and what is typed stays', async ({ server }) => {
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
    const second = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    await signIn(second, server, 'eve', 'eve-secret-42');
    await second.goto(`${server.base}/projects/default`);
    await second.getByRole('switch', { name: 'my-flag in development' }).click();
    await expect.poll(() => enabledIn(server, 'my-flag', 'development')).toBe(true);
    const committed = Date.now();
    await expect.poll(() => first.getByRole('switch', { name: 'my-flag in development' }).isChecked(), { timeout: 3000, interval: 25 }).toBe(true);
    expect(Date.now() - committed).toBeLessThan(1000);
    expect(await search.inputValue()).toBe('half typed');
    expect(await first.evaluate('document.activeElement && document.activeElement.id')).toBe('filter-q');
    // A change through the API reaches the page the same way; other rows are left alone.
    await server.h.json('POST', `${FLAGS}/other/environments/development/on`);
    await expect.poll(() => first.getByRole('switch', { name: 'other in development' }).isChecked(), { timeout: 3000 }).toBe(true);
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
    await expect.poll(() => page.getByRole('switch', { name: 'my-flag in development' }).isChecked(), { timeout: 3000 }).toBe(true);
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
    await expect.poll(() => page.getByRole('switch', { name: 'other in development' }).isChecked(), { timeout: 3000 }).toBe(true);
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

  test('without script, a switch is a form: Save sends it, and the offer comes as a page', async ({ server }) => {
    await flag(server, 'my-flag', { strategyIn: ['development'] });
    await flag(server, 'bare');
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const context = await browser().newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, server, 'ann', 'ann-secret-42');
    await page.goto(`${server.base}/projects/default?sort=name`);
    await page.getByRole('switch', { name: 'my-flag in development' }).check();
    await page.getByRole('button', { name: 'Save my-flag in development' }).click();
    await page.waitForURL(`${server.base}/projects/default?sort=name`);
    expect(await enabledIn(server, 'my-flag', 'development')).toBe(true);
    expect(await page.getByRole('switch', { name: 'my-flag in development' }).isChecked()).toBe(true);
    await page.getByRole('switch', { name: 'bare in development' }).check();
    await page.getByRole('button', { name: 'Save bare in development' }).click();
    await page.getByRole('button', { name: 'Add a 100% rollout and switch on' }).click();
    await page.waitForURL(`${server.base}/projects/default?sort=name`);
    expect(await enabledIn(server, 'bare', 'development')).toBe(true);
    await context.close();
  });
});
