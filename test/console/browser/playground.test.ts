/**
 * The playground in chromium, for what only a browser shows: its form filled and sent, the results' panels, axe
 * and the phone width. The evaluations and refusals are the page harness's (`../pages/playground.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();
const FEATURES = '/api/admin/projects/default/features';

/** A region field with legal values; `eu-banner` on in development for region eu; `everyone` on; `dormant` off. */
async function setUp(server: ConsoleServer): Promise<void> {
  await server.h.json('POST', '/api/admin/context', { name: 'region', description: 'Sales region', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
  for (const name of ['eu-banner', 'everyone', 'dormant']) await server.h.json('POST', FEATURES, { name });
  await server.h.json('POST', `${FEATURES}/eu-banner/environments/development/strategies`, {
    name: 'flexibleRollout', title: 'Europe only', parameters: { rollout: 100, stickiness: 'default', groupId: 'eu-banner' },
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await server.h.json('POST', `${FEATURES}/everyone/environments/development/strategies`, { name: 'default' });
  for (const name of ['eu-banner', 'everyone']) expect((await server.h.json('POST', `${FEATURES}/${name}/environments/development/on`)).status).toBe(200);
}

async function signedIn(server: ConsoleServer, username: string, rootRole: number, path = '/projects'): Promise<Page> {
  await createUserWithPassword(server, username, `${username}-secret-42`, rootRole);
  return signedInPage(browser(), server, username, `${username}-secret-42`, path);
}

/** A flag's result card, and its development result's summary and reasons. */
const card = (page: Page, flag: string) => page.locator('li.pg-flag').filter({ has: page.getByRole('heading', { name: flag, exact: true }) });
const development = (page: Page, flag: string) => card(page, flag).locator('details.pg-env');

describe('the playground', () => {
  test('a Viewer evaluates a context that matches a constraint and one that does not, with the reason per constraint', async ({ server }) => {
    await setUp(server);
    const page = await signedIn(server, 'vic', 3);
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.waitForURL(`${server.base}/playground`);
    expect(await page.getByRole('link', { name: 'Playground' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByLabel('development').isChecked()).toBe(true);
    // The field's legal values are offered.
    expect(await page.locator('#pg-ctx-region-values option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value))).toEqual(['eu', 'us']);
    await page.getByLabel('appName').fill('web');
    await page.getByLabel('region').fill('eu');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.waitForURL(/appName=web/);
    expect(new URL(page.url()).searchParams.get('properties.region')).toBe('eu');
    const matched = development(page, 'eu-banner');
    expect(await matched.locator('summary').textContent()).toMatch(/development\s*✓ On.*Strategy 1 \(Europe only\) matched/);
    expect(await matched.locator('.pg-check').textContent()).toMatch(/✓ met\s*region is one of\s*eu\s*— the context gives eu/);
    expect(await development(page, 'everyone').locator('summary').textContent()).toContain('✓ On');
    expect(await development(page, 'dormant').locator('summary').textContent()).toContain('Switched off in development.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'playground-desktop');
    const matchingUrl = page.url();

    await page.getByLabel('region').fill('us');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.waitForURL(/properties\.region=us/);
    const unmatched = development(page, 'eu-banner');
    expect(await unmatched.locator('summary').textContent()).toMatch(/✗ Off.*No strategy matched this context\./);
    expect(await unmatched.locator('.pg-check').textContent()).toMatch(/✗ not met\s*region is one of\s*eu\s*— the context gives us/);
    // The same answer as the API's for the same request.
    const api = await server.h.json('POST', '/api/admin/playground', { environment: 'development', projects: '*', context: { appName: 'web', properties: { region: 'us' } } });
    expect(Object.fromEntries((api.body.features as any[]).map((f) => [f.name, f.isEnabled]))).toEqual({ dormant: false, 'eu-banner': false, everyone: true });

    // The address reproduces the first result for someone else, in a fresh browser.
    const other = await signedIn(server, 'ann', 1, matchingUrl.slice(server.base.length));
    expect(await other.getByLabel('region').inputValue()).toBe('eu');
    expect(await development(other, 'eu-banner').locator('summary').textContent()).toContain('✓ On');
    expect(await development(other, 'eu-banner').locator('.pg-check').textContent()).toContain('✓ met');
    await other.setViewportSize(PHONE);
    await other.reload();
    expect(await scrollsSideways(other)).toBe(false);
    expect(await seriousViolations(other)).toEqual([]);
    await screenshot(other, 'playground-phone');
    await other.context().close();
    await page.context().close();
    // Two people, two browsers and three evaluations: more than the default 30 s when the machine is busy.
  }, 60_000);

});
