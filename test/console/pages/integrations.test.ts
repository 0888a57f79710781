/**
 * The integration pages through the app (issue 42): the list and the providers in Unleash's order, a webhook added
 * from its provider's form, refusals marked on their field with nothing made, an edit that keeps a secret left as
 * `*****`, the switch, delete, a test send to a real receiver on loopback, the delivery log with a failed attempt, and
 * what an Editor and a Viewer get. No secret is in any page.
 */
import { afterEach, describe, expect } from 'vitest';
import { WEBHOOK_EVENTS } from '../../../src/domain/addons/unleash-event-types.js';
import type { Harness } from '../../helpers/harness.js';
import { receiver, type Receiver } from '../../helpers/receiver.js';
import { pageTest, type Answer } from '../page-harness.js';

const ALLOW = { UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', ADDON_RETRY_FIRST_MS: '10', ADDON_RETRY_MAX_MS: '40' };
const test = pageTest(ALLOW);
const delivering = pageTest(ALLOW, { deliver: true });

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});
async function listening(reply?: Receiver['reply']): Promise<Receiver> {
  const r = await receiver(reply);
  receivers.push(r);
  return r;
}

const addons = async (h: Harness) => (await h.json('GET', '/api/admin/addons')).body.addons as Record<string, any>[];
/** A webhook made through the API, its secrets in its URL's query and its Authorization. */
async function webhook(h: Harness, r: Receiver, more: Record<string, unknown> = {}): Promise<number> {
  const made = await h.json('POST', '/api/admin/addons', {
    provider: 'webhook', description: 'Orders', parameters: { url: `${r.url}/hook?key=url-secret-1`, authorization: 'Bearer auth-secret-2', contentType: 'application/json' },
    events: ['feature-created'], ...more,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as number;
}
/** No secret of {@link webhook} anywhere in a page. */
const noSecret = (page: Answer) => expect(page.html).not.toMatch(/url-secret-1|auth-secret-2|\/hook\?key/);

describe('the list', () => {
  test('lists the providers in Unleash\'s order, the deprecated ones without a way to add them; Admin links to it', async ({ pages }) => {
    const ann = await pages.as('ann', 1);
    const admin = await ann.get('/admin');
    expect(admin.texts('.admin-index h2')).toContain('Integrations');
    const list = await ann.get('/admin/integrations');
    expect([list.status, list.title]).toEqual([200, 'Integrations']);
    expect(list.text('.list-card')).toContain('No integrations yet');
    expect(list.texts('.provider-card h3')).toEqual(['Webhook', 'Slack Deprecated', 'App for Slack', 'Microsoft Teams Deprecated', 'Datadog', 'New Relic', 'Microsoft Teams - Workflow']);
    const adds = [...list.doc.querySelectorAll('.provider-card a.button')].map((a) => a.getAttribute('href'));
    expect(adds).toEqual(['webhook', 'slack-app', 'datadog', 'new-relic', 'teamsworkflow'].map((p) => `/admin/new-integration/${p}`));
    expect(list.doc.querySelector('nav[aria-label="Administration"] a[aria-current="page"]')?.textContent).toBe('Integrations');
  });

  test('each addon with its state, events and last delivery; the switch disables and enables it, its secrets kept', async ({ h, pages }) => {
    const r = await listening();
    const id = await webhook(h, r, { events: ['feature-created', 'feature-archived'] });
    const ann = await pages.as('ann', 1);
    const list = await ann.get('/admin/integrations');
    expect([list.texts('.addon-table tbody th a'), list.texts('.addon-table tbody th .list-desc')]).toEqual([['Webhook'], ['Orders']]);
    expect(list.texts('.addon-table tbody td[data-label]')).toEqual(['Enabled', '2 events', 'None yet']);
    noSecret(list);
    const off = await ann.post(`/admin/integrations/${id}/enabled`, list.fieldsOf(`/admin/integrations/${id}/enabled`));
    expect([off.status, off.location]).toEqual([303, '/admin/integrations?done=disabled']);
    const again = await ann.get(off.location!);
    expect([again.statuses, again.texts('.addon-table td[data-label="State"]')]).toEqual([['Integration disabled.'], ['Disabled']]);
    expect((await addons(h))[0]).toMatchObject({ enabled: false, description: 'Orders', parameters: { url: '*****', authorization: '*****' } });
    const on = await ann.post(`/admin/integrations/${id}/enabled`, { enabled: 'true' });
    expect([on.status, on.location]).toEqual([303, '/admin/integrations?done=enabled']);
    // The stored secrets are the ones set: a test send reaches the URL with its key, and sends the Authorization.
    expect((await ann.post(`/admin/integrations/${id}/test`)).status).toBe(200);
    expect([r.received[0]!.path, r.received[0]!.headers['authorization']]).toEqual(['/hook?key=url-secret-1', 'Bearer auth-secret-2']);
    const refused = await ann.post(`/admin/integrations/${id}/enabled`, { enabled: 'maybe' });
    expect([refused.status, refused.alerts]).toEqual([400, [expect.stringContaining('must be true or false')]]);
    expect((await addons(h))[0]!.enabled).toBe(true);
  });
});

describe('adding and editing', () => {
  test('a webhook from its provider\'s form: parameters, events, projects, environments; the secret in no page after', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/projects', { id: 'shop', name: 'Shop' });
    const ann = await pages.as('ann', 1);
    const form = await ann.get('/admin/new-integration/webhook');
    expect(form.title).toBe('New Webhook integration');
    const kinds = [...form.doc.querySelectorAll('.addon-form [name^="parameters."]')].map((el) => `${el.getAttribute('name')}:${el.tagName === 'TEXTAREA' ? 'textarea' : el.getAttribute('type')}`);
    expect(kinds).toEqual(['parameters.url:password', 'parameters.contentType:text', 'parameters.authorization:password', 'parameters.customHeaders:password', 'parameters.bodyTemplate:textarea']);
    expect([...form.doc.querySelectorAll('input[name="events"]')].map((el) => el.getAttribute('value'))).toEqual([...WEBHOOK_EVENTS]);
    expect([...form.doc.querySelectorAll('input[name="projects"]')].map((el) => el.getAttribute('value'))).toEqual(['*', 'default', 'shop']);

    const made = await ann.post('/admin/integrations', {
      ...form.fieldsOf('/admin/integrations'), description: 'Shop events', 'parameters.url': 'http://127.0.0.1:9/hook?key=typed-secret-3',
      'parameters.bodyTemplate': '{"type": "{{event.type}}"}', events: ['feature-created', 'feature-updated'], projects: 'shop', environments: ['production'],
    });
    expect([made.status, made.location]).toEqual([303, '/admin/integrations/1?done=created']);
    expect(await addons(h)).toEqual([expect.objectContaining({
      id: 1, provider: 'webhook', description: 'Shop events', enabled: true, events: ['feature-created', 'feature-updated'], projects: ['shop'], environments: ['production'],
      parameters: { url: '*****', bodyTemplate: '{"type": "{{event.type}}"}' },
    })]);
    const page = await ann.get(made.location!);
    expect([page.statuses, page.doc.querySelector('#addon-param-url')?.getAttribute('value')]).toEqual([['Integration added.'], '*****']);
    expect(page.doc.querySelector('#addon-param-authorization')?.getAttribute('value')).toBe('');
    for (const answer of [page, await ann.get('/admin/integrations')]) expect(answer.html).not.toContain('typed-secret-3');
    expect(JSON.stringify(h.logs())).not.toContain('typed-secret-3');
  });

  test('every provider\'s form has its definition\'s parameters and events; a parameter the form has no field for is kept', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const { providers } = (await h.json('GET', '/api/admin/addons')).body as { providers: { name: string; deprecated?: string; parameters: { name: string; sensitive: boolean }[]; events: string[] }[] };
    for (const provider of providers.filter((p) => !p.deprecated)) {
      const form = await ann.get(`/admin/new-integration/${provider.name}`);
      const fields = [...form.doc.querySelectorAll('.addon-form [name^="parameters."]')];
      expect(fields.map((el) => el.getAttribute('name')), provider.name).toEqual(provider.parameters.map((p) => `parameters.${p.name}`));
      expect(fields.map((el) => el.getAttribute('type') === 'password'), provider.name).toEqual(provider.parameters.map((p) => p.sensitive));
      expect([...form.doc.querySelectorAll('input[name="events"]')].map((el) => el.getAttribute('value')), provider.name).toEqual(provider.events);
    }
    const made = await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'https://93.184.216.34/h', extraSetting: 'kept' }, events: ['custom-event'] });
    const page = await ann.get(`/admin/integrations/${made.body.id}`);
    expect(page.doc.querySelector('input[name="events"][value="custom-event"]')?.hasAttribute('checked')).toBe(true);
    expect((await ann.post(`/admin/integrations/${made.body.id}`, { ...page.fieldsOf(`/admin/integrations/${made.body.id}`), description: 'saved' })).status).toBe(303);
    expect((await addons(h))[0]).toMatchObject({ description: 'saved', parameters: { url: '*****', extraSetting: 'kept' }, events: ['custom-event'] });
  });

  test('refusals of the use case and the schema are marked on their field, the secret typed not shown again; nothing is made', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const base = { provider: 'webhook', enabled: 'on', events: 'feature-created' };
    const missing = await ann.post('/admin/integrations', { ...base, 'parameters.contentType': 'text/plain' });
    expect([missing.status, missing.invalid(), missing.message('parameters.url')]).toEqual([400, ['parameters.url'], 'Missing required parameters: url']);
    expect(missing.doc.querySelector('#addon-param-contentType')?.getAttribute('value')).toBe('text/plain');
    const privateUrl = await ann.post('/admin/integrations', { ...base, 'parameters.url': 'http://10.1.2.3/hook?key=typed-secret-4' });
    expect([privateUrl.status, privateUrl.invalid(), privateUrl.message('parameters.url')]).toEqual([400, ['parameters.url'], 'URL resolves to a non-public address: 10.1.2.3']);
    expect(privateUrl.html).not.toContain('typed-secret-4');
    const long = await ann.post('/admin/integrations', { ...base, 'parameters.url': 'http://93.184.216.34/h', description: 'x'.repeat(10_001) });
    expect([long.status, long.invalid()]).toEqual([400, ['description']]);
    expect(long.doc.querySelector('input[name="events"][value="feature-created"]')?.hasAttribute('checked')).toBe(true);
    expect(await addons(h)).toEqual([]);
  });

  test('a deprecated provider offers no form, and its create is refused as the API refuses it', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const page = await ann.get('/admin/new-integration/slack');
    expect([page.status, page.doc.querySelector('.addon-form'), page.text('.provider-about')]).toEqual([200, null, expect.stringContaining('deprecated')]);
    const posted = await ann.post('/admin/integrations', { provider: 'slack', 'parameters.url': 'https://hooks.slack.com/x', 'parameters.defaultChannel': 'general' });
    expect([posted.status, posted.alerts]).toEqual([400, [expect.stringContaining('deprecated')]]);
    expect((await ann.get('/admin/new-integration/nope')).status).toBe(404);
    expect(await addons(h)).toEqual([]);
  });

  test('an edit that leaves the secrets as ***** keeps them; an emptied optional secret is removed', async ({ h, pages }) => {
    const r = await listening();
    const id = await webhook(h, r);
    const ann = await pages.as('ann', 1);
    const page = await ann.get(`/admin/integrations/${id}`);
    noSecret(page);
    expect(['url', 'authorization'].map((p) => page.doc.querySelector(`#addon-param-${p}`)?.getAttribute('value'))).toEqual(['*****', '*****']);
    const fields = page.fieldsOf(`/admin/integrations/${id}`);
    const saved = await ann.post(`/admin/integrations/${id}`, { ...fields, description: 'Orders, renamed', events: ['feature-created', 'feature-archived'] });
    expect([saved.status, saved.location]).toEqual([303, `/admin/integrations/${id}?done=saved`]);
    const after = await ann.get(saved.location!);
    noSecret(after);
    expect((await addons(h))[0]).toMatchObject({ description: 'Orders, renamed', events: ['feature-created', 'feature-archived'], parameters: { url: '*****', authorization: '*****' } });
    expect((await ann.post(`/admin/integrations/${id}/test`)).status).toBe(200);
    expect([r.received[0]!.path, r.received[0]!.headers['authorization']]).toEqual(['/hook?key=url-secret-1', 'Bearer auth-secret-2']);

    const cleared = await ann.post(`/admin/integrations/${id}`, { ...after.fieldsOf(`/admin/integrations/${id}`), 'parameters.authorization': '' });
    expect(cleared.status).toBe(303);
    expect((await addons(h))[0]!.parameters).toEqual({ url: '*****', contentType: 'application/json' });
    const emptied = await ann.post(`/admin/integrations/${id}`, { ...after.fieldsOf(`/admin/integrations/${id}`), 'parameters.url': '' });
    expect([emptied.status, emptied.invalid()]).toEqual([400, ['parameters.url']]);
    noSecret(emptied);
    expect((await addons(h))[0]!.parameters).toEqual({ url: '*****', contentType: 'application/json' });
  });

  test('delete, after a confirmation; an unknown or malformed id is the 404 page', async ({ h, pages }) => {
    const id = await webhook(h, await listening());
    const ann = await pages.as('ann', 1);
    const page = await ann.get(`/admin/integrations/${id}`);
    expect(page.text('.confirm-panel')).toContain('Delete this Webhook integration and its delivery log?');
    const deleted = await ann.post(`/admin/integrations/${id}/delete`);
    expect([deleted.status, deleted.location]).toEqual([303, '/admin/integrations?done=deleted']);
    expect(await addons(h)).toEqual([]);
    for (const path of [`/admin/integrations/${id}`, '/admin/integrations/abc', '/admin/integrations/0/deliveries']) expect((await ann.get(path)).status).toBe(404);
  });
});

describe('test sends and the delivery log', () => {
  test('a test event to a real receiver: the answer on the page, the receiver\'s 500 as a failure, no secret shown', async ({ h, pages }) => {
    let status = 200;
    const r = await listening(() => ({ status }));
    const id = await webhook(h, r, { enabled: false });
    const ann = await pages.as('ann', 1);
    const ok = await ann.post(`/admin/integrations/${id}/test`);
    expect([ok.status, ok.text('#test-result-title'), ok.statuses]).toEqual([200, 'Test event Delivered', ['Webhook request was successful with status code: 200.']]);
    expect(r.received.map((x) => (x.json as { type: string; featureName: string }).featureName)).toEqual(['flagpole-test-event']);
    noSecret(ok);
    status = 500;
    const failed = await ann.post(`/admin/integrations/${id}/test`);
    expect([failed.status, failed.text('#test-result-title'), failed.alerts]).toEqual([200, 'Test event Failed', ['Webhook request failed with status code: 500.']]);
    noSecret(failed);
    const log = await ann.get(`/admin/integrations/${id}/deliveries`);
    expect(log.texts('.delivery-table tbody th')).toEqual(['Failed', 'Delivered']);
    noSecret(log);
  });

  delivering('the delivery log shows each attempt at a receiver answering 500, to be retried, and its details without a secret', async ({ h, pages }) => {
    const r = await listening(() => ({ status: 500 }));
    const id = await webhook(h, r);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'checkout' })).status).toBe(201);
    await expect.poll(async () => ((await h.json('GET', `/api/admin/addons/${id}/events`)).body.integrationEvents as unknown[]).length).toBeGreaterThanOrEqual(2);
    const ann = await pages.as('ann', 1);
    const log = await ann.get(`/admin/integrations/${id}/deliveries`);
    expect([log.title, log.text('.def-back')]).toEqual(['Delivery log', '← Webhook: Orders']);
    const first = log.doc.querySelector('.delivery-table tbody tr')!;
    expect(first.querySelector('th')?.textContent).toMatch(/^Failed/);
    expect(first.querySelector('[data-label="Event"]')?.textContent).toBe('feature-createdcheckout');
    expect(first.querySelector('.delivery-details')?.textContent).toMatch(/^Webhook request failed with status code: 500\./);
    expect(first.querySelector('.delivery-json')?.textContent).toContain('"url": "*****"');
    noSecret(log);
    const list = await ann.get('/admin/integrations');
    expect(list.text('.addon-table td[data-label="Last delivery"]')).toMatch(/^Failed/);
  });
});

describe('who may', () => {
  test('an Editor adds, edits, tests and deletes, but reads no delivery log (ADMIN, as the API)', async ({ h, pages }) => {
    const r = await listening();
    const ed = await pages.as('ed', 2);
    const made = await ed.post('/admin/integrations', { provider: 'webhook', 'parameters.url': `${r.url}/hook`, events: 'feature-created', projects: '*', environments: '*', enabled: 'on' });
    expect(made.status).toBe(303);
    const id = (await addons(h))[0]!.id as number;
    expect((await ed.post(`/admin/integrations/${id}/test`)).status).toBe(200);
    const list = await ed.get('/admin/integrations');
    expect(list.doc.querySelector('.addon-table td[data-label="Last delivery"]')).toBeNull();
    expect(list.doc.querySelector(`a[href="/admin/integrations/${id}/deliveries"]`)).toBeNull();
    expect((await ed.get(`/admin/integrations/${id}/deliveries`)).status).toBe(403);
  });

  test('a Viewer sees the integrations as facts, secrets as "Set", and every write is refused with nothing changed', async ({ h, pages }) => {
    const r = await listening();
    const id = await webhook(h, r);
    const vic = await pages.as('vic');
    const list = await vic.get('/admin/integrations');
    expect([list.status, list.doc.querySelectorAll('.provider-card a.button').length, list.doc.querySelectorAll('.addon-table form').length]).toEqual([200, 0, 0]);
    noSecret(list);
    const page = await vic.get(`/admin/integrations/${id}`);
    expect([page.status, page.doc.querySelector('form.addon-form'), page.doc.querySelector('input[type="password"]')]).toEqual([200, null, null]);
    expect(page.texts('.addon-facts dd').slice(0, 3)).toEqual(['Set (hidden)', 'application/json', 'Set (hidden)']);
    expect(page.html).not.toContain('*****');
    noSecret(page);
    const before = await addons(h);
    const writes: [string, Record<string, string>][] = [
      ['/admin/integrations', { provider: 'webhook', 'parameters.url': `${r.url}/x` }], [`/admin/integrations/${id}`, { provider: 'webhook', description: 'mine' }],
      [`/admin/integrations/${id}/enabled`, { enabled: 'false' }], [`/admin/integrations/${id}/test`, {}], [`/admin/integrations/${id}/delete`, {}],
    ];
    for (const [path, fields] of writes) expect((await vic.post(path, fields)).status, path).toBe(403);
    expect((await vic.get('/admin/new-integration/webhook')).status).toBe(403);
    expect((await vic.get(`/admin/integrations/${id}/deliveries`)).status).toBe(403);
    expect(await addons(h)).toEqual(before);
    expect(r.received).toEqual([]);
  });
});
