/**
 * A flag's page through the app: each of its forms posted as a browser posts it (the version the page showed
 * riding along as `ifMatch`), answered 303 back to the page, or 4xx with the page again, the refused field marked
 * and nothing changed; what changed read back through the admin API; what a Viewer and a form from an old page get.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../../http/usage/usage-fixtures.js';
import { pageTest, type Browser } from '../page-harness.js';

const test = pageTest();

const FLAG_API = '/api/admin/projects/default/features/checkout';
const PAGE = '/projects/default/features/checkout';

type H = Harness;

/** The flag with a 50% rollout titled Half in development. */
async function checkout(h: H): Promise<string> {
  await h.json('POST', '/api/admin/projects/default/features', { name: 'checkout', description: 'New checkout flow' });
  const added = await h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'flexibleRollout', title: 'Half', parameters: { rollout: 50, stickiness: 'default', groupId: 'checkout' } });
  return added.body.id as string;
}

const flag = async (h: H) => (await h.json('GET', FLAG_API)).body;
const env = (body: any, name: string) => (body.environments as any[]).find((e) => e.name === name);

/** Opens the page and posts the form at `action` with its fields as shown, `change` applied. */
async function submit(browser: Browser, action: string, change: Record<string, string | string[]> = {}, within = '') {
  const page = await browser.get(PAGE);
  return browser.post(`${PAGE}${action}`, { ...page.fieldsOf(`${PAGE}${action}`, within), ...change });
}

describe('a flag\'s page', () => {
  test('shows the flag; its switch goes back to the page, switched', async ({ h, pages }) => {
    await checkout(h);
    const admin = await pages.admin();
    const page = await admin.get(PAGE);
    expect(page.title).toBe('checkout');
    expect(page.doc.querySelector('[role="switch"][aria-label="checkout in development"]')?.getAttribute('aria-checked')).toBe('false');
    const switched = await submit(admin, '/environments/development/toggle');
    expect([switched.status, switched.location]).toEqual([303, `${PAGE}?done=toggled#env-development`]);
    expect(env(await flag(h), 'development').enabled).toBe(true);
    const after = await admin.get(switched.location!);
    expect(after.statuses).toContain('Switched.');
    expect(after.doc.querySelector('[role="switch"][aria-label="checkout in development"]')?.getAttribute('aria-checked')).toBe('true');
    // Switched off by the same form: the button sends no `enabled`.
    expect((await submit(admin, '/environments/development/toggle')).status).toBe(303);
    expect(env(await flag(h), 'development').enabled).toBe(false);
  });

  test('switching on where nothing serves the flag offers what the table offers, with the same words', async ({ h, pages }) => {
    await checkout(h);
    const admin = await pages.admin();
    const page = await admin.get(PAGE);
    expect(page.text('section#env-production')).toContain('No strategies: switching it on first offers to add a 100% rollout.');
    const offer = await submit(admin, '/environments/production/toggle');
    expect(offer.status).toBe(200);
    expect(offer.text('section#env-production [role="group"]')).toContain('checkout has no enabled strategy in production, so switching it on would serve it to no one.');
    expect(env(await flag(h), 'production').enabled).toBe(false);
    const action = `${PAGE}/environments/production/toggle`;
    const taken = await admin.post(action, { ...offer.fieldsOf(action, '.offer'), with: 'strategy' });
    expect(taken.status).toBe(303);
    expect(env(await flag(h), 'production')).toMatchObject({ enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100' } }] });
    // With a default strategy set, the page says so, and the offer adds it.
    await h.json('POST', '/api/admin/projects/default/environments/development/default-strategy', { name: 'default', title: 'Everyone' });
    await h.json('DELETE', `${FLAG_API}/environments/development/strategies/${env(await flag(h), 'development').strategies[0].id}`);
    expect((await admin.get(PAGE)).text('section#env-development')).toContain('No strategies: switched on, the flag gets the project\'s default strategy here.');
  });

  test('edits a strategy, a constraint and a variant added; read back through the admin API', async ({ h, pages }) => {
    const id = await checkout(h);
    const admin = await pages.admin();
    const saved = await submit(admin, `/environments/development/strategies/${id}`, {
      'parameters.rollout': '25', 'constraints.0.new': 'true', 'constraints.0.contextName': 'userId', 'constraints.0.operator': 'IN', 'constraints.0.values': '42\n43',
      'variants.0.new': 'true', 'variants.0.name': 'red', 'variants.0.weightType': 'variable',
    });
    expect([saved.status, saved.location]).toEqual([303, `${PAGE}?done=saved#env-development`]);
    const [strategy] = env(await flag(h), 'development').strategies;
    expect(strategy.parameters.rollout).toBe('25');
    expect(strategy.constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['42', '43'], inverted: false, caseInsensitive: false }]);
    expect(strategy.variants.map((x: any) => [x.name, x.weight, x.weightType])).toEqual([['red', 1000, 'variable']]);
    expect((await admin.get(saved.location!)).text('section#env-development [aria-label="Constraints"]')).toMatch(/userId\s*is one of\s*42\s*43/);
  });

  test('a refused strategy form: 400, the page with the form open as sent, each message on its field, nothing changed', async ({ h, pages }) => {
    const id = await checkout(h);
    const admin = await pages.admin();
    const action = `/environments/development/strategies/${id}`;
    const form = `form[action="${PAGE}${action}"]`;
    const page = await submit(admin, action, { 'parameters.rollout': '150' });
    expect(page.status).toBe(400);
    expect(page.invalid(form)).toEqual(['parameters.rollout']);
    expect(page.message('parameters.rollout', form)).toBe('"parameters.rollout": must be an integer from 0 to 100 for flexibleRollout');
    expect((page.doc.querySelector(`${form} [name="parameters.rollout"]`) as unknown as { value: string }).value).toBe('150');
    expect(page.doc.querySelector(`${form}`)?.closest('details')?.hasAttribute('open')).toBe(true);
    const constraint = await submit(admin, action, { 'constraints.0.new': 'true', 'constraints.0.contextName': 'userId', 'constraints.0.operator': 'IN', 'constraints.0.values': '' });
    expect(constraint.invalid(form)).toEqual(['constraints.0.values']);
    expect(constraint.message('constraints.0.values', form)).toContain('"constraints.0.values": operator IN needs at least one non-empty value');
    expect(env(await flag(h), 'development').strategies[0].parameters.rollout).toBe('50');
  });

  test('a form from a page opened before another change is refused whole (412) and changes nothing', async ({ h, pages }) => {
    await checkout(h);
    const admin = await pages.admin();
    const page = await admin.get(PAGE);
    const action = `${PAGE}/metadata`;
    const sent = { ...page.fieldsOf(action), description: 'Ann\'s words' };
    await h.json('PATCH', FLAG_API, [{ op: 'replace', path: '/description', value: 'Eve\'s words' }]);
    const refused = await admin.post(action, sent);
    expect(refused.status).toBe(412);
    expect(refused.texts('form[aria-label="Flag details"] [role="alert"]')).toEqual(['This flag was changed by someone else since you opened it; reload to see the change. Nothing was saved.']);
    expect(refused.invalid()).toEqual([]);
    expect((refused.doc.querySelector('#meta-description') as unknown as { textContent: string }).textContent).toBe('Ann\'s words');
    expect((await flag(h)).description).toBe('Eve\'s words');
  });

  test('adds a strategy (typed text stays text) and deletes one', async ({ h, pages }) => {
    const id = await checkout(h);
    const admin = await pages.admin();
    const added = await submit(admin, '/environments/production/strategies', { title: '<b>Everyone</b>', 'parameters.rollout': '100' });
    expect([added.status, added.location]).toEqual([303, `${PAGE}?done=added#env-production`]);
    expect(env(await flag(h), 'production').strategies.map((s: any) => [s.name, s.title, s.parameters.rollout])).toEqual([['flexibleRollout', '<b>Everyone</b>', '100']]);
    const page = await admin.get(added.location!);
    expect(page.text('section#env-production h4')).toBe('<b>Everyone</b>');
    expect(page.html).not.toContain('<b>Everyone</b>');
    expect((await submit(admin, `/environments/development/strategies/${id}/delete`)).status).toBe(303);
    expect(env(await flag(h), 'development').strategies).toEqual([]);
  });

  test('saves the metadata; archives, revives, and deletes once archived', async ({ h, pages }) => {
    await checkout(h);
    const admin = await pages.admin();
    expect((await submit(admin, '/metadata', { description: 'Checkout, version two', type: 'experiment', stale: 'on' })).location).toBe(`${PAGE}?done=saved#details-title`);
    expect(await flag(h)).toMatchObject({ description: 'Checkout, version two', type: 'experiment', stale: true });
    expect((await submit(admin, '/archive')).location).toBe(`${PAGE}?done=archived`);
    const archived = await admin.get(PAGE);
    expect(archived.doc.querySelectorAll('[role="switch"]').length).toBe(0);
    expect(archived.text('details.confirm')).toContain('Delete "checkout" for good? This cannot be undone.');
    expect((await submit(admin, '/revive')).location).toBe(`${PAGE}?done=revived`);
    expect((await flag(h)).archived).toBe(false);
    await submit(admin, '/archive');
    const deleted = await submit(admin, '/delete');
    expect([deleted.status, deleted.location]).toEqual([303, '/projects/default']);
    expect((await h.json('GET', FLAG_API)).status).toBe(404);
  });

  test('edits the variants; a bad JSON payload is named on its field and saves nothing', async ({ h, pages }) => {
    await checkout(h);
    const admin = await pages.admin();
    const refused = await submit(admin, '/variants', { 'variants.0.name': 'blue', 'variants.0.weightType': 'variable', 'variants.0.payloadType': 'json', 'variants.0.payloadValue': '{"colour": ' });
    expect(refused.status).toBe(400);
    expect(refused.invalid('form[aria-label="Variants"]')).toEqual(['variants.0.payloadValue']);
    expect(refused.message('variants.0.payloadValue', 'form[aria-label="Variants"]')).toContain('must be valid JSON for a json payload');
    expect((await h.json('GET', `${FLAG_API}/variants`)).body.variants).toEqual([]);
    const saved = await submit(admin, '/variants', {
      'variants.0.name': 'blue', 'variants.0.weightType': 'variable', 'variants.0.payloadType': 'json', 'variants.0.payloadValue': '{"colour": "blue"}', 'variants.0.overrides': 'userId: 7, 12',
      'variants.1.name': 'green', 'variants.1.weightType': 'variable',
    });
    expect(saved.status).toBe(303);
    const variants = (await h.json('GET', `${FLAG_API}/variants`)).body.variants as any[];
    expect(variants.map((v) => [v.name, v.weight, v.payload?.value])).toEqual([['blue', 500, '{"colour": "blue"}'], ['green', 500, undefined]]);
    expect(variants[0].overrides).toEqual([{ contextName: 'userId', values: ['7', '12'] }]);
  });

  test('shows usage with its figures, adds a dependency (a bad variant named on its field), clones the flag', async ({ h, pages }) => {
    await checkout(h);
    const sdk = await clientToken(h);
    await postMetrics(h, sdk, nodeMetricsBody({ checkout: { yes: 12, no: 3, variants: {} } }));
    await h.registry.usage.flush();
    await h.json('POST', '/api/admin/projects/default/features', { name: 'payments' });
    const admin = await pages.admin();
    const page = await admin.get(PAGE);
    expect(page.doc.querySelector('[role="img"][aria-label="development: 12 yes and 3 no in the last 48 hours"]')).not.toBeNull();
    const refused = await submit(admin, '/dependencies', { feature: 'payments', variants: 'new one, blue' });
    expect(refused.invalid('form[aria-label="Add a dependency"]')).toEqual(['variants']);
    expect(refused.message('variants', 'form[aria-label="Add a dependency"]')).toMatch(/^"variants\.0": /);
    expect((await flag(h)).dependencies).toEqual([]);
    expect((await submit(admin, '/dependencies', { feature: 'payments', variants: 'blue' })).location).toBe(`${PAGE}?done=linked#dependencies-title`);
    expect((await flag(h)).dependencies).toEqual([{ feature: 'payments', enabled: true, variants: ['blue'] }]);
    const clone = await submit(admin, '/clone', { name: 'checkout-v2' });
    expect(clone.location).toBe('/projects/default/features/checkout-v2?done=cloned');
    expect((await h.json('GET', '/api/admin/projects/default/features/checkout-v2')).status).toBe(200);
    const taken = await submit(admin, '/clone', { name: 'payments' });
    expect([taken.status, taken.invalid('form[aria-label="Clone this flag"]')]).toEqual([409, ['name']]);
  });

  test('tags, copying strategies, disabling one and moving one down', async ({ h, pages }) => {
    await checkout(h);
    await h.json('POST', `${FLAG_API}/environments/development/strategies`, { name: 'default', title: 'All' });
    const admin = await pages.admin();
    expect((await submit(admin, '/tags', { value: 'web' })).location).toBe(`${PAGE}?done=tagged#tags-title`);
    expect((await flag(h)).tags).toEqual([{ type: 'simple', value: 'web' }]);
    expect((await submit(admin, '/tags/remove')).status).toBe(303);
    expect((await flag(h)).tags).toEqual([]);
    const half = env(await flag(h), 'development').strategies.find((s: any) => s.title === 'Half').id;
    expect((await submit(admin, `/environments/development/strategies/${half}/move`, { direction: 'down' })).location).toBe(`${PAGE}?done=moved#env-development`);
    const titles = async (environment: string) => env(await flag(h), environment).strategies.map((x: any) => `${x.title}${x.disabled ? ' (disabled)' : ''}`);
    expect(await titles('development')).toEqual(['All', 'Half']);
    const all = env(await flag(h), 'development').strategies.find((s: any) => s.title === 'All').id;
    expect((await submit(admin, `/environments/development/strategies/${all}/disable`)).status).toBe(303);
    expect(await titles('development')).toEqual(['All (disabled)', 'Half']);
    expect((await submit(admin, '/environments/production/copy')).location).toBe(`${PAGE}?done=copied#env-production`);
    expect(await titles('production')).toEqual(['All (disabled)', 'Half']);
  });

  test('a Viewer reads it with no switch and no form, and a post of a form is refused and changes nothing', async ({ h, pages }) => {
    await checkout(h);
    const viewer = await pages.as('vic');
    const page = await viewer.get(PAGE);
    expect(page.title).toBe('checkout');
    expect(page.doc.querySelectorAll('[role="switch"], main form, main button, main input, main select, main textarea').length).toBe(0);
    const refused = await viewer.post(`${PAGE}/environments/development/toggle`, { enabled: 'on' });
    expect([refused.status, refused.title]).toEqual([403, 'You may not do this']);
    expect(env(await flag(h), 'development').enabled).toBe(false);
  });
});
