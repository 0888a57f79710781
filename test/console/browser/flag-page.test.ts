/**
 * A flag's page in chromium: the switch, strategies added, edited with a constraint and deleted, a refused form
 * with the API's message next to its field, metadata, archive and revive, what a Viewer sees; results read back
 * through the admin API; accessibility and the phone width.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { clientToken, nodeMetricsBody, postMetrics } from '../http/usage/usage-fixtures.js';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signIn, useBrowser, type ConsoleServer } from './browser.js';

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
  const page = await (await browser().newContext({ viewport })).newPage();
  await signIn(page, server, 'ann', 'ann-secret-42');
  await page.goto(`${server.base}/projects/default/features/checkout`);
  return page;
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

  test('edits a strategy adding a constraint, read back through the admin API', async ({ server }) => {
    const page = await openFlag(server);
    await devSection(page).getByText('Edit Half').click();
    const section = editForm(page);
    await section.getByLabel('Rollout (%)').fill('25');
    await section.getByLabel('Context field').last().selectOption('userId');
    await section.getByLabel('Operator').last().selectOption('IN');
    await section.getByLabel('Values').last().fill('42\n43');
    await section.getByText('Strategy variants (0)').click();
    await section.getByLabel('Name').fill('red');
    await section.getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForURL(/done=saved/);
    const [strategy] = env(await flag(server), 'development').strategies;
    expect(strategy.parameters.rollout).toBe('25');
    expect(strategy.constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['42', '43'], inverted: false, caseInsensitive: false }]);
    expect(strategy.variants.map((x: any) => [x.name, x.weight, x.weightType])).toEqual([['red', 1000, 'variable']]);
    expect(await devSection(page).getByRole('list', { name: 'Constraints' }).textContent()).toMatch(/userId\s*is one of\s*42\s*43/);
    await page.context().close();
  });

  test('a refused form shows the API\'s message next to the field and changes nothing', async ({ server }) => {
    const page = await openFlag(server);
    await devSection(page).getByText('Edit Half').click();
    const section = editForm(page);
    await section.getByLabel('Rollout (%)').evaluate((el: any) => el.removeAttribute('max'));
    await section.getByLabel('Rollout (%)').fill('150');
    await section.getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForLoadState();
    const rollout = editForm(page).getByLabel('Rollout (%)');
    const described = await rollout.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`#${described!.split(' ')[0]}`).textContent()).toBe('"parameters.rollout": must be an integer from 0 to 100 for flexibleRollout');
    expect(await rollout.inputValue()).toBe('150');
    // A constraint without values: the message sits under the values of that constraint.
    await editForm(page).getByLabel('Rollout (%)').fill('30');
    await editForm(page).getByLabel('Context field').last().selectOption('userId');
    await editForm(page).getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForLoadState();
    const values = editForm(page).getByLabel('Values').first();
    expect(await values.getAttribute('aria-invalid')).toBe('true');
    const alert = page.locator(`#${(await values.getAttribute('aria-describedby'))!.split(' ')[0]}`);
    expect(await alert.textContent()).toContain('"constraints.0.values": operator IN needs at least one non-empty value');
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(env(await flag(server), 'development').strategies[0].parameters.rollout).toBe('50');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-error-desktop');
    await page.context().close();
  });

  test('adds a strategy and deletes one after a confirmation naming it', async ({ server }) => {
    const page = await openFlag(server);
    const prod = page.locator('section#env-production');
    await prod.getByText('Add strategy', { exact: true }).click();
    const form = prod.getByRole('form', { name: 'Add strategy to production' });
    await form.getByLabel('Title').fill('<b>Everyone</b>');
    await form.getByLabel('Rollout (%)').fill('100');
    await form.getByRole('button', { name: 'Add strategy to production' }).click();
    await page.waitForURL(/done=added/);
    const added = env(await flag(server), 'production').strategies;
    expect(added.map((s: any) => [s.name, s.title, s.parameters.rollout])).toEqual([['flexibleRollout', '<b>Everyone</b>', '100']]);
    // What was typed is shown as text, never as markup.
    expect(await page.locator('section#env-production h4').textContent()).toBe('<b>Everyone</b>');
    await devSection(page).getByText('Delete…').click();
    await devSection(page).getByRole('button', { name: 'Delete Half' }).click();
    await page.waitForURL(/done=deleted/);
    expect(env(await flag(server), 'development').strategies).toEqual([]);
    await page.context().close();
  });

  test('saves the metadata; archives and revives the flag', async ({ server }) => {
    const page = await openFlag(server);
    await page.getByText('Edit details').click();
    await page.getByLabel('Description').fill('Checkout, version two');
    await page.getByLabel('Type', { exact: true }).selectOption('experiment');
    await page.getByLabel('Stale').check();
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.waitForURL(/done=saved/);
    const saved = await flag(server);
    expect([saved.description, saved.type, saved.stale]).toEqual(['Checkout, version two', 'experiment', true]);
    await page.getByText('Archive flag…').click();
    await page.getByRole('button', { name: 'Archive flag' }).click();
    await page.waitForURL(/done=archived/);
    expect((await flag(server)).archived).toBe(true);
    expect(await page.getByRole('switch').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'flag-archived-desktop');
    await page.getByRole('button', { name: 'Revive flag' }).click();
    await page.waitForURL(/done=revived/);
    expect((await flag(server)).archived).toBe(false);
    expect(await page.getByRole('switch', { name: 'checkout in development' }).count()).toBe(1);
    // Deleting needs the flag archived first, then a confirmation naming it.
    await page.getByText('Archive flag…').click();
    await page.getByRole('button', { name: 'Archive flag' }).click();
    await page.waitForURL(/done=archived/);
    await page.getByText('Delete flag…').click();
    expect(await page.getByText('Delete "checkout" for good? This cannot be undone.').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete flag', exact: true }).click();
    await page.waitForURL(`${server.base}/projects/default`);
    expect((await server.h.json('GET', FLAG_API)).status).toBe(404);
    await page.context().close();
  });

  test('a Viewer sees the flag read-only: no switch, no form', async ({ server }) => {
    await createUserWithPassword(server, 'vic', 'vic-secret-42', 3);
    await server.h.json('POST', '/api/admin/projects/default/features', { name: 'checkout' });
    await server.h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'flexibleRollout', parameters: { rollout: 50 } });
    const page = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    await signIn(page, server, 'vic', 'vic-secret-42');
    await page.goto(`${server.base}/projects/default/features/checkout`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('checkout');
    expect(await page.getByRole('switch').count()).toBe(0);
    expect(await page.locator('main form').count()).toBe(0);
    expect(await page.locator('main button, main input, main select, main textarea').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flag-viewer-desktop');
    // The forms' routes refuse a Viewer too, and nothing changes.
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers'))!)['X-CSRF-Token'] as string;
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const refused = await fetch(`${server.base}/projects/default/features/checkout/environments/development/toggle`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ _csrf: csrf, enabled: 'true' }),
      headers: { cookie, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refused.status).toBe(403);
    expect(env(await flag(server), 'development').enabled).toBe(false);
    await page.context().close();
  });

  test('edits the variants; a bad JSON payload is named next to its field', async ({ server }) => {
    const page = await openFlag(server);
    await page.getByText('Edit variants').click();
    const form = page.getByRole('form', { name: 'Variants' });
    await form.getByLabel('Name').fill('blue');
    await form.getByLabel('Payload type').selectOption('json');
    await form.getByLabel('Payload', { exact: true }).fill('{"colour": ');
    await form.getByRole('button', { name: 'Save variants' }).click();
    await page.waitForLoadState();
    const payload = page.getByRole('form', { name: 'Variants' }).getByLabel('Payload', { exact: true }).first();
    expect(await payload.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${(await payload.getAttribute('aria-describedby'))!}`).textContent()).toContain('must be valid JSON for a json payload');
    expect((await server.h.json('GET', `${FLAG_API}/variants`)).body.variants).toEqual([]);
    await payload.fill('{"colour": "blue"}');
    const again = page.getByRole('form', { name: 'Variants' });
    await again.getByLabel('Overrides').first().fill('userId: 7, 12');
    await again.getByLabel('Name').last().fill('green');
    await again.getByRole('button', { name: 'Save variants' }).click();
    await page.waitForURL(/done=saved/);
    const variants = (await server.h.json('GET', `${FLAG_API}/variants`)).body.variants as any[];
    expect(variants.map((v) => [v.name, v.weight, v.payload?.value])).toEqual([['blue', 500, '{"colour": "blue"}'], ['green', 500, undefined]]);
    expect(variants[0].overrides).toEqual([{ contextName: 'userId', values: ['7', '12'] }]);
    expect(await page.getByRole('cell', { name: 'userId: 7, 12' }).count()).toBe(1);
    await page.context().close();
  });

  test('shows usage as a chart with its figures, adds a dependency, clones the flag', async ({ server }) => {
    const sdk = await clientToken(server.h);
    const page = await openFlag(server);
    await postMetrics(server.h, sdk, nodeMetricsBody({ checkout: { yes: 12, no: 3, variants: {} } }));
    await server.h.registry.usage.flush();
    await server.h.json('POST', '/api/admin/projects/default/features', { name: 'payments' });
    await page.reload();
    expect(await page.getByRole('img', { name: 'development: 12 yes and 3 no in the last 48 hours' }).count()).toBe(1);
    await page.getByText('Hourly figures for development').click();
    expect(await page.getByRole('cell', { name: '12' }).count()).toBe(1);
    await page.getByLabel('Parent flag').selectOption('payments');
    await page.getByLabel('With one of the parent\'s variants').fill('new one, blue');
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.waitForLoadState();
    const variants = page.getByLabel('With one of the parent\'s variants');
    expect(await page.locator(`#${(await variants.getAttribute('aria-describedby'))!.split(' ')[0]}`).textContent()).toMatch(/^"variants\.0": /);
    expect((await flag(server)).dependencies).toEqual([]);
    await variants.fill('blue');
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await page.waitForURL(/done=linked/);
    expect((await flag(server)).dependencies).toEqual([{ feature: 'payments', enabled: true, variants: ['blue'] }]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'flag-usage-desktop');
    await page.getByText('Clone…').click();
    await page.getByLabel('Name of the copy').fill('checkout-v2');
    await page.getByRole('button', { name: 'Clone flag' }).click();
    await page.waitForURL(`${server.base}/projects/default/features/checkout-v2?done=cloned`);
    expect((await server.h.json('GET', '/api/admin/projects/default/features/checkout-v2')).status).toBe(200);
    await page.context().close();
  });

  test('tags, copying strategies, disabling one and moving one down', async ({ server }) => {
    const page = await openFlag(server);
    await server.h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'default', title: 'All' });
    await page.reload();
    await page.getByLabel('Tag value').fill('web');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.waitForURL(/done=tagged/);
    expect((await flag(server)).tags).toEqual([{ type: 'simple', value: 'web' }]);
    await page.getByRole('button', { name: 'Remove tag simple:web' }).click();
    await page.waitForURL(/done=tagged/);
    expect((await flag(server)).tags).toEqual([]);
    await devSection(page).getByRole('button', { name: 'Move Half down' }).click();
    await page.waitForURL(/done=moved/);
    const titles = async (environment: string) => env(await flag(server), environment).strategies.map((x: any) => `${x.title}${x.disabled ? ' (disabled)' : ''}`);
    expect(await titles('development')).toEqual(['All', 'Half']);
    await devSection(page).getByRole('button', { name: 'Disable All' }).click();
    await page.waitForURL(/done=saved/);
    expect(await titles('development')).toEqual(['All (disabled)', 'Half']);
    await page.locator('section#env-production').getByRole('button', { name: 'Copy' }).click();
    await page.waitForURL(/done=copied/);
    expect(await titles('production')).toEqual(['All (disabled)', 'Half']);
    await page.context().close();
  });
});
