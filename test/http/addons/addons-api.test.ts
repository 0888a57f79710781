/**
 * Unleash's addon API: the providers in Unleash's order and shape, Unleash's validation messages, the private-URL
 * guard with its allow-list, `*****` for every secret in every answer (the create's and update's too), a masked value
 * sent back keeping the stored one, Unleash's answers for unknown ids, the tag types a provider brings.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { harness, type Harness } from '../../helpers/harness.js';
import { createUser, personalToken } from '../access/access-fixtures.js';

let h: Harness;
afterEach(async () => h?.close());

const SECRET_URL = 'http://127.0.0.1:9/hooks/T000/B000/very-secret-path';
const WEBHOOK = { provider: 'webhook', description: 'ci', parameters: { url: SECRET_URL, contentType: 'text/plain', authorization: 'Bearer s3cr3t-auth', customHeaders: '{"X-Key":"k3y-h3ad3r"}' }, events: ['feature-created'] };
const SECRETS = [SECRET_URL, 'very-secret-path', 's3cr3t-auth', 'k3y-h3ad3r'];

/** No secret of WEBHOOK anywhere in `text`. */
const expectNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

describe('the providers', () => {
  test('GET /api/admin/addons lists the seven providers in Unleash\'s order, with their parameters and events', async () => {
    h = await harness();
    const { status, body } = await h.json('GET', '/api/admin/addons');
    expect(status).toBe(200);
    expect(body.addons).toEqual([]);
    expect(body.providers.map((p: { name: string }) => p.name)).toEqual(['webhook', 'slack', 'slack-app', 'teams', 'datadog', 'new-relic', 'teamsworkflow']);
    const byName = Object.fromEntries(body.providers.map((p: { name: string }) => [p.name, p]));
    expect(byName.webhook.parameters.map((p: { name: string; required: boolean; sensitive: boolean }) => [p.name, p.required, p.sensitive])).toEqual([
      ['url', true, true], ['contentType', false, false], ['authorization', false, true], ['customHeaders', false, true], ['bodyTemplate', false, false],
    ]);
    expect(byName['new-relic'].parameters.find((p: { name: string }) => p.name === 'url')).toMatchObject({ required: true, sensitive: false });
    expect(byName.slack.deprecated).toMatch(/deprecated/);
    expect(byName.teams.deprecated).toMatch(/deprecated/);
    expect(byName['slack-app'].tagTypes).toEqual([expect.objectContaining({ name: 'slack', icon: 'S' })]);
    expect(byName.webhook.events).toContain('feature-environment-enabled');
    expect(byName.webhook.events).toContain('change-request-applied');
    expect(byName.datadog.events).toContain('feature-environment-variants-updated');
    expect(byName['slack-app'].events).toContain('addon-config-created');
  });
});

describe('validation (Unleash\'s messages)', () => {
  test('an unknown provider, a missing required parameter, a deprecated provider and a private URL are refused, and nothing is created', async () => {
    h = await harness();
    const refused = async (body: unknown) => {
      const { status, body: answer } = await h.json('POST', '/api/admin/addons', body);
      expect(status).toBe(400);
      return answer.message as string;
    };
    expect(await refused({ provider: 'nope', parameters: {} })).toBe('Unknown addon provider nope');
    expect(await refused({ provider: 'webhook', parameters: {} })).toBe('Missing required parameters: url ');
    expect(await refused({ provider: 'new-relic', parameters: {} })).toBe('Missing required parameters: url,licenseKey ');
    expect(await refused({ provider: 'slack', parameters: { url: 'https://8.8.8.8/x', defaultChannel: 'c' } })).toBe('This integration is deprecated. Please try the new App for Slack integration instead.');
    expect(await refused({ provider: 'teams', parameters: { url: 'https://8.8.8.8/x' } })).toMatch(/^This integration is deprecated/);
    expect(await refused({ provider: 'webhook', parameters: { url: 'http://127.0.0.1:9/x' } })).toBe('URL resolves to a non-public address: 127.0.0.1');
    expect(await refused({ provider: 'webhook', parameters: { url: 'http://[::1]:9/x' } })).toBe('URL resolves to a non-public address: ::1');
    expect(await refused({ provider: 'webhook', parameters: { url: 'http://10.1.2.3/x' } })).toBe('URL resolves to a non-public address: 10.1.2.3');
    expect(await refused({ provider: 'webhook', parameters: { url: 'ftp://8.8.8.8/x' } })).toBe('Invalid protocol: ftp:');
    expect(await refused({ provider: 'webhook', parameters: { url: 'not a url' } })).toBe('Invalid URL');
    expect(await refused({ parameters: {} })).toMatch(/"provider": is required/);
    expect(await refused({ provider: 'webhook', parameters: { url: ['x'] } })).toMatch(/parameters\.url/);
    expect((await h.json('GET', '/api/admin/addons')).body.addons).toEqual([]);
  });

  test('UNLEASH_ALLOW_LIST_INTEGRATION lets a listed host through, and UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION every private one', async () => {
    h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: 'LOCALHOST, 127.0.0.1' });
    expect((await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'http://127.0.0.1:9/x' } })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'http://localhost:9/x' } })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'http://10.0.0.1/x' } })).status).toBe(400);
    await h.close();
    h = await harness({ UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: 'true' });
    expect((await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: 'http://10.0.0.1/x' } })).status).toBe(201);
  });

  test('LIMIT_ADDONS bounds the addons', async () => {
    h = await harness({ LIMIT_ADDONS: '1' });
    expect((await h.json('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'a' } })).status).toBe(201);
    const over = await h.json('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'b' } });
    expect([over.status, over.body.name, over.body.message]).toEqual([400, 'ExceedsLimitError', 'The number of addons is limited to 1 (configurable with LIMIT_ADDONS)']);
  });
});

describe('secrets', () => {
  test('are masked in the create\'s, the update\'s, the list\'s and the read\'s answers, in dumps and in log lines', async () => {
    h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', LOG_LEVEL: 'debug' });
    const created = await h.json('POST', '/api/admin/addons', WEBHOOK);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: 1, provider: 'webhook', description: 'ci', enabled: true, events: ['feature-created'], projects: [], environments: [], createdAt: expect.any(String),
      parameters: { url: '*****', contentType: 'text/plain', authorization: '*****', customHeaders: '*****' },
    });
    const listed = await h.json('GET', '/api/admin/addons');
    expect(listed.body.addons).toEqual([created.body]);
    expect((await h.json('GET', '/api/admin/addons/1')).body).toEqual(created.body);
    const updated = await h.json('PUT', '/api/admin/addons/1', { ...created.body, description: 'changed' });
    expect(updated.status).toBe(200);
    expect(updated.body.parameters).toEqual(created.body.parameters);
    const dump = await h.req('GET', '/api/admin/state');
    const dumped = await dump.text();
    expect(dumped).toContain('"customHeaders": "*****"');
    for (const text of [JSON.stringify(created.body), JSON.stringify(listed.body), JSON.stringify(updated.body), dumped, JSON.stringify(h.logs())]) expectNoSecret(text);
  });

  test('a masked value sent back keeps the stored secret; a new value replaces it; a parameter left out is removed', async () => {
    h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1' });
    await h.json('POST', '/api/admin/addons', WEBHOOK);
    const stored = () => h.registry.service.state.addons!['1']!.parameters;
    await h.json('PUT', '/api/admin/addons/1', { provider: 'webhook', parameters: { url: '*****', authorization: '*****', customHeaders: '{"X":"y"}' }, events: ['feature-created'] });
    expect(stored()).toEqual({ url: SECRET_URL, authorization: 'Bearer s3cr3t-auth', customHeaders: '{"X":"y"}' });
    // A masked value for a parameter that was never set is dropped, not stored as five asterisks.
    await h.json('PUT', '/api/admin/addons/1', { provider: 'webhook', parameters: { url: '*****', authorization: '*****' } });
    expect(stored()).toEqual({ url: SECRET_URL, authorization: 'Bearer s3cr3t-auth' });
    await h.json('PUT', '/api/admin/addons/1', { provider: 'webhook', parameters: { url: '*****', customHeaders: '*****' } });
    expect(stored()).toEqual({ url: SECRET_URL });
  });

  test('a live backup carries the secrets (to restore them), a dump does not: restored from a dump, the addon comes back disabled without them', async () => {
    h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1' });
    await h.json('POST', '/api/admin/addons', WEBHOOK);
    const backup = await h.json('GET', '/api/admin/backup');
    expect(JSON.stringify(backup.body)).toContain('s3cr3t-auth');
    const { restoreDump, parseDump } = await import('../../../src/tools/restore.js');
    const dump = parseDump(await (await h.req('GET', '/api/admin/state')).text());
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = join(mkdtempSync(join(tmpdir(), 'flagpole-addon-restore-')), 'data');
    try {
      const summary = await restoreDump(dir, dump);
      expect(summary.disabledAddons).toEqual([{ id: 1, provider: 'webhook', parameters: ['authorization', 'customHeaders', 'url'] }]);
      const restored = await harness({}, dir);
      try {
        expect((await restored.json('GET', '/api/admin/addons/1')).body).toMatchObject({ enabled: false, parameters: { contentType: 'text/plain' } });
        expect(restored.registry.service.state.addons!['1']!.parameters).toEqual({ contentType: 'text/plain' });
      } finally {
        await restored.close();
      }
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});

describe('reads, updates and deletes', () => {
  test('unknown ids: GET and PUT 404, DELETE 200 (as Unleash), the delivery log [] or 400 for a non-number', async () => {
    h = await harness();
    expect((await h.json('GET', '/api/admin/addons/7')).status).toBe(404);
    expect((await h.json('GET', '/api/admin/addons/x')).status).toBe(404);
    expect((await h.json('PUT', '/api/admin/addons/7', { provider: 'slack-app', parameters: { accessToken: 'a' } })).status).toBe(404);
    expect((await h.req('DELETE', '/api/admin/addons/7')).status).toBe(200);
    expect((await h.json('GET', '/api/admin/addons/7/events')).body).toEqual({ integrationEvents: [] });
    const bad = await h.json('GET', '/api/admin/addons/x/events');
    expect([bad.status, bad.body.message]).toEqual([400, 'Invalid integration configuration id']);
  });

  test('an update replaces events and filters, keeps an absent description, and a delete removes the addon', async () => {
    h = await harness();
    await h.json('POST', '/api/admin/addons', { provider: 'slack-app', description: 'team', parameters: { accessToken: 'xoxb-1' }, events: ['feature-created'], projects: ['default'], environments: ['production'] });
    const updated = await h.json('PUT', '/api/admin/addons/1', { provider: 'slack-app', parameters: { accessToken: '*****', defaultChannels: 'ops' }, events: ['feature-archived'], enabled: false, id: 1, createdAt: 'ignored' });
    expect(updated.body).toMatchObject({ description: 'team', enabled: false, events: ['feature-archived'], projects: [], environments: [], parameters: { accessToken: '*****', defaultChannels: 'ops' } });
    expect((await h.json('PUT', '/api/admin/addons/1', { provider: 'slack-app', description: null, parameters: { accessToken: '*****' } })).body.description).toBe('');
    expect((await h.req('DELETE', '/api/admin/addons/1')).status).toBe(200);
    expect((await h.json('GET', '/api/admin/addons/1')).status).toBe(404);
  });

  test('creating an addon of a provider with tag types creates the missing ones, and a restart keeps everything', async () => {
    h = await harness();
    await h.json('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'xoxb-1' } });
    await h.json('POST', '/api/admin/addons', { provider: 'datadog', parameters: { apiKey: 'dd' } });
    const names = async () => (await h.json('GET', '/api/admin/tag-types')).body.tagTypes.map((t: { name: string }) => t.name);
    expect(await names()).toEqual(['simple', 'slack', 'datadog']);
    const before = (await h.json('GET', '/api/admin/addons')).body;
    await h.restart();
    expect((await h.json('GET', '/api/admin/addons')).body).toEqual(before);
    expect(await names()).toEqual(['simple', 'slack', 'datadog']);
  });

  test('root Editors may write addons, Viewers only read them (secrets masked)', async () => {
    h = await harness();
    const editor = await personalToken(h, await createUser(h, { username: 'ed', rootRole: 2 }));
    const viewer = await personalToken(h, await createUser(h, { username: 'vi', rootRole: 3 }));
    expect((await h.json('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'xoxb-ed' } }, { token: editor })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'xoxb-vi' } }, { token: viewer })).status).toBe(403);
    const read = await h.json('GET', '/api/admin/addons/1', undefined, { token: viewer });
    expect(read.body.parameters).toEqual({ accessToken: '*****' });
    expect((await h.json('GET', '/api/admin/addons/1/events', undefined, { token: viewer })).status).toBe(403);
  });
});
