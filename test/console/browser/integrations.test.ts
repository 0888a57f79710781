/**
 * The integration pages in chromium, for what only a browser shows: a webhook added through its provider's form as a
 * person fills it, a test event sent to a real receiver on loopback and seen in the delivery log, axe on each page,
 * and the desktop and 390 px widths. The flows and refusals are the page harness's (`../pages/integrations.test.ts`).
 */
import { afterEach, describe, expect } from 'vitest';
import { receiver, type Receiver } from '../../helpers/receiver.js';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser } from './browser.js';
import type { Page } from 'playwright-core';

const browser = useBrowser();
const test = consoleTest({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1' });

let r: Receiver | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

/** No serious accessibility violation, nothing wider than a phone, then a screenshot at both widths. */
async function look(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  expect(await scrollsSideways(page)).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe('integrations', () => {
  test('an Admin adds a webhook, sends a test event and finds it in the delivery log; no secret on any page', async ({ server }) => {
    r = await receiver();
    const secretUrl = `${r.url}/hook?key=browser-secret-9`;
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42', '/admin/integrations');
    expect(await page.title()).toBe('Integrations · flagpole');
    await look(page, 'integrations-empty');

    await page.getByRole('link', { name: 'Add Webhook' }).click();
    await page.waitForURL(/\/admin\/new-integration\/webhook$/);
    await page.getByLabel('Webhook URL').fill(secretUrl);
    await page.getByLabel('Description').fill('Release notes');
    await page.getByRole('checkbox', { name: 'feature-created', exact: true }).check();
    await page.getByRole('checkbox', { name: 'feature-environment-enabled', exact: true }).check();
    await look(page, 'integrations-new');
    await page.getByRole('button', { name: 'Add Webhook' }).click();
    await page.waitForURL(/\/admin\/integrations\/1\?done=created$/);
    expect(await page.getByRole('status').first().textContent()).toBe('Integration added.');
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe('*****');

    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => page.locator('#test-result-title').textContent()).toBe('Test event Delivered');
    expect(await page.locator('.test-result [role="status"]').textContent()).toBe('Webhook request was successful with status code: 200.');
    expect(r.received.map((x) => [x.path, (x.json as { featureName: string }).featureName])).toEqual([['/hook?key=browser-secret-9', 'flagpole-test-event']]);
    expect(await page.content()).not.toContain('browser-secret-9');
    await look(page, 'integrations-tested');

    await page.getByRole('link', { name: 'Delivery log' }).click();
    await page.waitForURL(/\/admin\/integrations\/1\/deliveries$/);
    const row = page.locator('.delivery-table tbody tr').first();
    expect(await row.locator('th').textContent()).toBe('Delivered');
    expect(await row.locator('[data-label="Event"]').textContent()).toBe('feature-updatedflagpole-test-event');
    await row.locator('summary').click();
    expect(await row.locator('.delivery-json').textContent()).toContain('"url": "*****"');
    expect(await page.content()).not.toContain('browser-secret-9');
    await look(page, 'integrations-deliveries');

    await page.goto(`${server.base}/admin/integrations`);
    expect(await page.locator('.addon-table tbody th').textContent()).toBe('WebhookRelease notes');
    expect(await page.content()).not.toContain('browser-secret-9');
    await look(page, 'integrations-list');
    expect(JSON.stringify(server.h.logs())).not.toContain('browser-secret-9');
    await page.context().close();
  });
});
