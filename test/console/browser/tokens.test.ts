/**
 * The API token pages in chromium, for what only a browser shows: the secret's copy button (the clipboard), axe
 * and the phone width. The flows and refusals are the page harness's (`../pages/tokens.test.ts`).
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInContext, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest({ LOG_LEVEL: 'debug' });

const tokenNamed = async (server: ConsoleServer, name: string) =>
  ((await server.h.json('GET', '/api/admin/api-tokens')).body.tokens as { id: string; tokenName: string; type: string; projects: string[]; environment: string }[]).find((t) => t.tokenName === name);

async function adminPage(server: ConsoleServer) {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  const context = await signedInContext(browser(), server, 'ann', 'ann-secret-42');
  const page = await context.newPage();
  await page.goto(`${server.base}/admin/tokens`);
  return { context, page };
}

describe('API tokens', () => {
  test('a client token: the secret once, with a copy button, that reads the client API; never again', async ({ server }) => {
    await server.h.json('POST', '/api/admin/projects', { id: 'checkout', name: 'Checkout' });
    await server.h.json('POST', '/api/admin/projects/checkout/features', { name: 'new-cart' });
    const { context, page } = await adminPage(server);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    expect(await page.title()).toBe('API tokens · flagpole');
    await page.getByText('New token').click();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tokens-new-desktop');
    await page.getByLabel('Name').fill('checkout-web');
    await page.getByRole('radio', { name: /^Client/ }).check();
    await page.getByLabel('All projects, present and future').uncheck();
    await page.getByLabel('Checkout').check();
    await page.getByLabel('Environment', { exact: true }).selectOption('production');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForLoadState();

    const secret = await page.getByLabel('Token secret').inputValue();
    expect(secret).toMatch(/^checkout:production\.[0-9a-f]{56}$/);
    expect(await page.locator('.secret-once').textContent()).toContain('will not be shown again');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#secret-value-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tokens-secret-desktop');
    expect(await tokenNamed(server, 'checkout-web')).toMatchObject({ type: 'client', projects: ['checkout'], environment: 'production' });

    const features = await server.h.json('GET', '/api/client/features', undefined, { token: secret });
    expect(features.status).toBe(200);
    expect((features.body.features as { name: string }[]).map((f) => f.name)).toEqual(['new-cart']);

    // A reload is a GET of the list: the secret is in no page and no log line.
    const reloaded = await page.goto(`${server.base}/admin/tokens`);
    const html = await reloaded!.text();
    expect(html).toContain('checkout-web');
    expect(html).not.toContain(secret.slice('checkout:production.'.length));
    expect(await page.locator('.secret-once').count()).toBe(0);
    expect(JSON.stringify(server.h.logs())).not.toContain(secret.slice('checkout:production.'.length));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tokens-desktop');
    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'tokens-phone');
    await page.getByText('New token').click();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'tokens-new-phone');
    await context.close();
  });

});
