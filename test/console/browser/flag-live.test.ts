/**
 * The flag page among the others: its project navigation and the link to the flag's own history; and live: a
 * change made elsewhere (through the admin API, or by a second person in another browser) shows on an open page
 * without a reload, and a value half typed in an open form survives it (a notice asks to reload instead); a
 * save from a page opened before someone else's change is refused (the API's If-Match) and changes nothing.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, feedListeners, signIn, useBrowser, waitForLiveStreams, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const FLAG_API = '/api/admin/projects/default/features/checkout';

async function openFlag(server: ConsoleServer): Promise<Page> {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  await server.h.json('POST', '/api/admin/projects/default/features', { name: 'checkout', description: 'New checkout flow' });
  await server.h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'flexibleRollout', title: 'Half', parameters: { rollout: 50, stickiness: 'default', groupId: 'checkout' } });
  const page = await (await browser().newContext({ viewport: DESKTOP })).newPage();
  await signIn(page, server, 'ann', 'ann-secret-42');
  await page.goto(`${server.base}/projects/default/features/checkout`);
  return page;
}

/** The same flag page opened by a second person (an Editor) in a browser context of their own. */
async function openAsSecond(server: ConsoleServer): Promise<Page> {
  await createUserWithPassword(server, 'eve', 'eve-secret-42', 2);
  const page = await (await browser().newContext({ viewport: DESKTOP })).newPage();
  await signIn(page, server, 'eve', 'eve-secret-42');
  await page.goto(`${server.base}/projects/default/features/checkout`);
  return page;
}

/** The flag as the admin API reads it. */
const flagOf = async (server: ConsoleServer) => (await server.h.json('GET', FLAG_API)).body as { description: string; environments: { name: string; enabled: boolean }[] };

/** The page's own marker: a page that was reloaded loses it. */
const mark = (page: Page) => page.evaluate('window.notReloaded = true');
const stillSamePage = (page: Page) => page.evaluate('window.notReloaded === true');

describe('the flag page among the project\'s pages', () => {
  test('has the project navigation, and its history link shows the flag\'s timeline', async ({ server }) => {
    const page = await openFlag(server);
    const nav = page.getByRole('navigation', { name: 'Project Default' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Flags', 'History', 'Compare', 'Export and import', 'Settings']);
    await page.getByRole('link', { name: 'History of this flag' }).click();
    await page.waitForURL(/\/projects\/default\/history\?feature=checkout$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('History of checkout');
    expect(await page.locator('main').textContent()).toContain('Half');
    await page.getByRole('link', { name: 'Open the flag' }).click();
    await page.waitForURL(/\/projects\/default\/features\/checkout$/);
    await page.getByRole('navigation', { name: 'Project Default' }).getByRole('link', { name: 'Flags' }).click();
    await page.waitForURL(/\/projects\/default$/);
    expect(await page.getByRole('navigation', { name: 'Project Default' }).getByRole('link', { name: 'Flags' }).getAttribute('aria-current')).toBe('page');
  });
});

describe('the flag page, live', () => {
  test('shows a switch made elsewhere within two seconds, without a reload', async ({ server }) => {
    const listeners = feedListeners(server);
    const page = await openFlag(server);
    const toggle = () => page.getByRole('switch', { name: 'checkout in development' });
    expect(await toggle().getAttribute('aria-checked')).toBe('false');
    await mark(page);
    await waitForLiveStreams(server, listeners);
    const started = Date.now();
    expect((await server.h.json('POST', `${FLAG_API}/environments/development/on`)).status).toBe(200);
    await expect.poll(() => toggle().getAttribute('aria-checked'), { timeout: 2000, interval: 50 }).toBe('true');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stillSamePage(page)).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'changed by someone else' }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Updated with a change made elsewhere.' }).waitFor({ timeout: 1000 });
  });

  test('keeps a half typed value in an open form and says the flag changed', async ({ server }) => {
    const listeners = feedListeners(server);
    const page = await openFlag(server);
    await page.getByText('Edit Half').click();
    const title = page.locator('section#env-development').getByRole('form', { name: 'Save strategy' }).getByLabel('Title');
    await title.fill('Half of the users, typed');
    await mark(page);
    await waitForLiveStreams(server, listeners);
    expect((await server.h.json('POST', `${FLAG_API}/environments/development/on`)).status).toBe(200);
    await page.getByRole('status').filter({ hasText: 'This flag was changed by someone else' }).waitFor({ timeout: 2000 });
    expect(await title.inputValue()).toBe('Half of the users, typed');
    expect(await stillSamePage(page)).toBe(true);
    // The switch still shows what the page was loaded with until the person reloads.
    expect(await page.getByRole('switch', { name: 'checkout in development' }).getAttribute('aria-checked')).toBe('false');
  });

  test('a switch made in a second browser shows on the first page within a second, without a reload', async ({ server }) => {
    const listeners = feedListeners(server);
    const page = await openFlag(server);
    const second = await openAsSecond(server);
    await mark(page);
    await waitForLiveStreams(server, listeners, 2);
    await second.getByRole('switch', { name: 'checkout in development' }).click();
    await expect.poll(async () => (await flagOf(server)).environments.find((e) => e.name === 'development')!.enabled).toBe(true);
    const committed = Date.now();
    await expect.poll(() => page.getByRole('switch', { name: 'checkout in development' }).getAttribute('aria-checked'), { timeout: 3000, interval: 25 }).toBe('true');
    expect(Date.now() - committed).toBeLessThan(1000);
    expect(await stillSamePage(page)).toBe(true);
    await second.context().close();
    await page.context().close();
  });

  test('a save from a page opened before another person\'s save is refused with a message and changes nothing', async ({ server }) => {
    const page = await openFlag(server);
    const second = await openAsSecond(server);
    const description = (p: Page) => p.getByRole('form', { name: 'Flag details' }).getByLabel('Description');
    // Both start editing the details.
    await page.getByText('Edit details').click();
    await description(page).fill('Ann\'s words');
    await second.getByText('Edit details').click();
    await description(second).fill('Eve\'s words');
    await second.getByRole('button', { name: 'Save details' }).click();
    await second.getByText('Saved.').waitFor();
    expect((await flagOf(server)).description).toBe('Eve\'s words');
    // Ann's page was opened (and is still being edited) from the version before Eve's save.
    await page.getByRole('form', { name: 'Flag details' }).getByRole('button', { name: 'Save details' }).click();
    const alert = page.getByRole('form', { name: 'Flag details' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('This flag was changed by someone else since you opened it; reload to see the change. Nothing was saved.');
    expect((await flagOf(server)).description).toBe('Eve\'s words');
    // What Ann typed is still there to copy; after a reload the page shows Eve's change and saves over it.
    expect(await description(page).inputValue()).toBe('Ann\'s words');
    await page.goto(`${server.base}/projects/default/features/checkout`);
    expect(await page.locator('#details-title').locator('xpath=../..').textContent()).toContain('Eve\'s words');
    await second.context().close();
    await page.context().close();
  });
});
