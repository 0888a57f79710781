/**
 * A flag's page in chromium, for what only a browser shows: the switch clicked, axe at both widths, and a refused
 * form focusing its invalid field. The forms and their refusals are the page harness's (`../pages/flag-
 * page.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const FLAG_API = '/api/admin/projects/default/features/checkout';

async function flag(server: ConsoleServer): Promise<any> {
  const res = await server.h.json('GET', FLAG_API);
  expect(res.status).toBe(200);
  return res.body;
}

const env = (body: any, name: string) => (body.environments as any[]).find((e) => e.name === name);

/** A flag with a rollout in development and a signed-in Admin on its page. */
async function openFlag(server: ConsoleServer, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  await server.h.json('POST', '/api/admin/projects/default/features', { name: 'checkout', description: 'New checkout flow' });
  await server.h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'flexibleRollout', title: 'Half', parameters: { rollout: 50, stickiness: 'default', groupId: 'checkout' } });
  return signedInPage(browser(), server, 'ann', 'ann-secret-42', '/projects/default/features/checkout', { viewport });
}

const devSection = (page: Page) => page.locator('section#env-development');
const editForm = (page: Page) => devSection(page).getByRole('form', { name: 'Save strategy' });

describe('a flag\'s page', () => {
  test('shows the flag, switches it in an environment, passes axe, and fits a phone', async ({ server }) => {
    const page = await openFlag(server);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('checkout');
    const toggle = page.getByRole('switch', { name: 'checkout in development' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await page.waitForURL(/done=toggled/);
    expect(await page.getByRole('switch', { name: 'checkout in development' }).getAttribute('aria-checked')).toBe('true');
    expect(env(await flag(server), 'development').enabled).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'flag-desktop');
    await page.setViewportSize(PHONE);
    await page.reload();
    expect(await scrollsSideways(page)).toBe(false);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'flag-phone');
    await page.getByText('Edit Half').click();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'flag-phone-edit');
    await page.context().close();
  });

  test('a refused form shows the API\'s message next to the field and changes nothing', async ({ server }) => {
    const page = await openFlag(server);
    await devSection(page).getByText('Edit Half').click();
    // A rollout out of range, its message and the value kept, are the page harness's (../pages/flag-page.test.ts).
    // A constraint without values: the message sits under the values of that constraint.
    await editForm(page).getByLabel('Rollout (%)').fill('30');
    await editForm(page).getByLabel('Context field').last().selectOption('userId');
    await editForm(page).getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForLoadState();
    const values = editForm(page).getByLabel('Values').first();
    await expect.poll(() => values.getAttribute('aria-invalid')).toBe('true');
    const alert = page.locator(`#${(await values.getAttribute('aria-describedby'))!.split(' ')[0]}`);
    expect(await alert.textContent()).toContain('"constraints.0.values": operator IN needs at least one non-empty value');
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(env(await flag(server), 'development').strategies[0].parameters.rollout).toBe('50');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-error-desktop');
    await page.context().close();
  });

});
