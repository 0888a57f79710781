/**
 * The API token pages in chromium: a client token made from lists of projects and environments, its secret shown
 * once with a working copy button (and nowhere after: not on a reload, not in the list, not in any log line), the
 * token answering the client API, revoking after a confirmation naming it, the API's message next to a refused
 * field, and a Viewer refused; accessibility and both widths.
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signIn, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest({ LOG_LEVEL: 'debug' });

const tokenNamed = async (server: ConsoleServer, name: string) =>
  ((await server.h.json('GET', '/api/admin/api-tokens')).body.tokens as { id: string; tokenName: string; type: string; projects: string[]; environment: string }[]).find((t) => t.tokenName === name);

async function adminPage(server: ConsoleServer, viewport: { width: number; height: number } = DESKTOP) {
  await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
  const context = await browser().newContext({ viewport });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await signIn(page, server, 'ann', 'ann-secret-42');
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

  test('revoking asks for a confirmation naming the token; the token is refused afterwards', async ({ server }) => {
    const made = await server.h.json('POST', '/api/admin/api-tokens', { tokenName: 'old-sdk', type: 'client', projects: ['default'], environment: 'development' });
    const { context, page } = await adminPage(server, PHONE);
    const row = page.getByRole('row').filter({ hasText: 'old-sdk' });
    await row.getByText('Revoke…').click();
    const confirm = page.getByRole('form', { name: 'Revoke old-sdk' });
    expect(await confirm.textContent()).toContain('Revoke the client token old-sdk?');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tokens-revoke-phone');
    await confirm.getByRole('button', { name: 'Revoke old-sdk' }).click();
    await page.waitForURL(`${server.base}/admin/tokens?done=revoked`);
    expect(await tokenNamed(server, 'old-sdk')).toBeUndefined();
    expect((await server.h.json('GET', '/api/client/features', undefined, { token: made.body.secret })).status).toBe(401);
    await context.close();
  });

  test('a refused token shows the API\'s message next to its field and makes nothing', async ({ server }) => {
    const { context, page } = await adminPage(server);
    await page.getByText('New token').click();
    await page.getByLabel('Name').fill('nothing-chosen');
    await page.getByLabel('All projects, present and future').uncheck();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#token-projects-error').textContent()).toContain('choose at least one project');
    await page.getByLabel('Default').check();
    await page.getByLabel('Expires').fill('2001-01-01');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#token-expires-error').textContent()).toContain('must be in the future');
    expect(await page.getByLabel('Name').inputValue()).toBe('nothing-chosen');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await tokenNamed(server, 'nothing-chosen')).toBeUndefined();
    await context.close();
  });

  test('a frontend token for every project; an admin token', async ({ server }) => {
    const { context, page } = await adminPage(server);
    for (const [name, type] of [['web-app', /^Frontend/], ['ops-script', /^Admin/]] as const) {
      await page.goto(`${server.base}/admin/tokens`);
      await page.getByText('New token').click();
      await page.getByLabel('Name').fill(name);
      await page.getByRole('radio', { name: type }).check();
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.waitForLoadState();
      expect(await page.getByLabel('Token secret').count()).toBe(1);
    }
    expect(await tokenNamed(server, 'web-app')).toMatchObject({ type: 'frontend', projects: ['*'], environment: 'development' });
    expect(await tokenNamed(server, 'ops-script')).toMatchObject({ type: 'admin', projects: ['*'], environment: '*' });
    await context.close();
  });

  test('a Viewer opening the token list gets the "you may not" page', async ({ server }) => {
    await createUserWithPassword(server, 'vic', 'vic-secret-42', 3);
    const context = await browser().newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server, 'vic', 'vic-secret-42');
    const response = await page.goto(`${server.base}/admin/tokens`);
    expect(response?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You may not open this page');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(1);
    await context.close();
  });
});
