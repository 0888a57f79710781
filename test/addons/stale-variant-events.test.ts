/**
 * Two events Unleash 6.10 offers addons, delivered to real receivers on loopback: `feature-potentially-stale-on` when
 * the minute check (here every 20 ms, POTENTIALLY_STALE_CHECK_MS) finds a flag past its type's lifetime (the clock is
 * moved forward: only `Date` is faked, timers run as they do), once per flag; and `feature-environment-variants-updated`,
 * once per environment, beside `feature-variants-updated`, when a flag's variants change.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';
import { receiver, type Receiver } from '../helpers/receiver.js';

const DAY = 24 * 60 * 60 * 1000;
const URL_ = 'https://flags.example.com';

let h: Harness | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await h?.close();
  h = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

async function start(): Promise<Harness> {
  h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', PUBLIC_URL: URL_, POTENTIALLY_STALE_CHECK_MS: '20' }, undefined, { deliver: true });
  return h;
}

async function listening(): Promise<Receiver> {
  const r = await receiver();
  receivers.push(r);
  return r;
}

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await h!.json(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
};

const bodies = (r: Receiver) => r.received.map((x) => x.json as Record<string, unknown>);

test('a flag past its lifetime reaches the addons once as feature-potentially-stale-on, by the system user, with its tags', async () => {
  await start();
  // The service's first check marks what is old already, unannounced: wait for it before any flag exists.
  await expect.poll(() => h!.registry.service.state.potentiallyStale).toBeDefined();
  const hook = await listening();
  const teams = await listening();
  const events = ['feature-potentially-stale-on'];
  await ok('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: `${hook.url}/hook` }, events });
  await ok('POST', '/api/admin/addons', { provider: 'teamsworkflow', parameters: { url: `${teams.url}/workflow` }, events });
  await ok('POST', '/api/admin/projects/default/features', { name: 'aging' });
  await ok('POST', '/api/admin/projects/default/features', { name: 'switch', type: 'kill-switch' });
  await ok('POST', '/api/admin/features/aging/tags', { type: 'simple', value: 'team-a' });

  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + 41 * DAY);
  await expect.poll(() => bodies(hook).length, { timeout: 20_000 }).toBe(1);
  expect(bodies(hook)[0]).toEqual({
    id: expect.any(Number), type: 'feature-potentially-stale-on', createdBy: 'unleash_system_user', createdAt: expect.any(String), createdByUserId: -1337,
    data: null, preData: null, tags: [{ type: 'simple', value: 'team-a' }], featureName: 'aging', project: 'default', environment: null,
  });
  await expect.poll(() => teams.received.length).toBe(1);
  const card = JSON.stringify(teams.received[0]!.json);
  expect(card).toContain(`*[aging](${URL_}/projects/default/features/aging)* was marked as potentially stale in project *[default](${URL_}/projects/default)*`);

  // A flag made now ages too: its event comes at its own time, and the first flag's never again (checks ran between).
  await ok('POST', '/api/admin/projects/default/features', { name: 'later', type: 'operational' });
  vi.setSystemTime(Date.now() + 8 * DAY);
  await expect.poll(() => bodies(hook).map((b) => b['featureName']), { timeout: 20_000 }).toEqual(['aging', 'later']);
  expect(h!.registry.service.state.potentiallyStale?.['default']).toEqual(['aging', 'later']);
});

test('a change of variants reaches Datadog once per environment (feature-environment-variants-updated) and a webhook as feature-variants-updated', async () => {
  await start();
  const datadog = await listening();
  const hook = await listening();
  await ok('POST', '/api/admin/addons', { provider: 'datadog', parameters: { url: `${datadog.url}/api/v1/events`, apiKey: 'dd-key' }, events: ['feature-environment-variants-updated'] });
  await ok('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: `${hook.url}/hook` }, events: ['feature-variants-updated', 'feature-environment-variants-updated'] });
  await ok('POST', '/api/admin/projects/default/features', { name: 'colours' });
  const variants = [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }];
  const stored = (await ok('PUT', '/api/admin/projects/default/features/colours/variants', variants)) as { variants: unknown[] };

  await expect.poll(() => bodies(hook).length).toBe(3);
  expect(bodies(hook).map((b) => [b['type'], b['environment']])).toEqual([
    ['feature-variants-updated', null], ['feature-environment-variants-updated', 'development'], ['feature-environment-variants-updated', 'production'],
  ]);
  for (const body of bodies(hook)) expect(body).toMatchObject({ featureName: 'colours', project: 'default', data: { variants: stored.variants }, preData: { variants: [] } });
  await expect.poll(() => datadog.received.length).toBe(2);
  expect(datadog.received.map((x) => (x.json as { text: string }).text)).toEqual(['development', 'production'].map((env) =>
    `%%% \n *init-admin-token-1* updated variants for *[colours](${URL_}/projects/default/features/colours)* for the *${env}* environment in project *[default](${URL_}/projects/default)* \n %%% `));
});
