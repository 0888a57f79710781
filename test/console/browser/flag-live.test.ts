/**
 * A flag's page kept live in chromium (htmx's SSE extension): a switch made elsewhere shows without a reload, and
 * a half typed form is kept with a notice instead. What the page posts is the page harness's (`../pages/flag-
 * page.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { untilState } from '../../helpers/wait.js';
import { consoleTest, createUserWithPassword, feedListeners, signedInPage, useBrowser, waitForLiveStreams, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const FLAG_API = '/api/admin/projects/default/features/checkout';

async function openFlag(server: ConsoleServer): Promise<Page> {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  await server.h.json('POST', '/api/admin/projects/default/features', { name: 'checkout', description: 'New checkout flow' });
  await server.h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'flexibleRollout', title: 'Half', parameters: { rollout: 50, stickiness: 'default', groupId: 'checkout' } });
  return signedInPage(browser(), server, 'ann', 'ann-secret-42', '/projects/default/features/checkout');
}

/** The page's own marker: a page that was reloaded loses it. */
const mark = (page: Page) => page.evaluate('window.notReloaded = true');
const stillSamePage = (page: Page) => page.evaluate('window.notReloaded === true');

describe('the flag page, live', () => {
  test('shows a switch made elsewhere without a reload', async ({ server }) => {
    const listeners = feedListeners(server);
    const page = await openFlag(server);
    const toggle = () => page.getByRole('switch', { name: 'checkout in development' });
    expect(await toggle().getAttribute('aria-checked')).toBe('false');
    await mark(page);
    await waitForLiveStreams(server, listeners);
    expect((await server.h.json('POST', `${FLAG_API}/environments/development/on`)).status).toBe(200);
    await expect.poll(() => toggle().getAttribute('aria-checked'), untilState(50)).toBe('true');
    expect(await stillSamePage(page)).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'changed by someone else' }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Updated with a change made elsewhere.' }).waitFor();
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
    await page.getByRole('status').filter({ hasText: 'This flag was changed by someone else' }).waitFor();
    expect(await title.inputValue()).toBe('Half of the users, typed');
    expect(await stillSamePage(page)).toBe(true);
    // The switch still shows what the page was loaded with until the person reloads.
    expect(await page.getByRole('switch', { name: 'checkout in development' }).getAttribute('aria-checked')).toBe('false');
  });

});
