/**
 * The real Node SDK (`unleash-client` 6.12.1) against a real server socket: it registers, evaluates flags
 * (from bootstrap data, so the test does not depend on `/api/client/features`), posts its metrics on its
 * own timer, and the counts and `lastSeenAt` show through the admin API.
 */
import { createRequire } from 'node:module';
import { serve } from '@hono/node-server';
import { expect } from 'vitest';
import { harnessTest } from '../helpers/fixtures.js';
import { freePort } from '../helpers/net.js';
import { STATE_TIMEOUT_MS } from '../helpers/wait.js';
import { clientToken, countedBuckets, createFlag, flagPath } from '../http/usage/usage-fixtures.js';

const require = createRequire(import.meta.url);
type SdkEvents = 'error' | 'warn' | 'sent' | 'registered' | 'ready';
interface UnleashSdk {
  isEnabled(name: string, context?: object): boolean;
  getVariant(name: string, context?: object): { name: string; enabled: boolean };
  on(event: SdkEvents, listener: (...args: unknown[]) => void): void;
  once(event: SdkEvents, listener: (...args: unknown[]) => void): void;
  destroy(): void;
}
const { Unleash, InMemStorageProvider } = require('unleash-client') as {
  Unleash: new (options: Record<string, unknown>) => UnleashSdk;
  InMemStorageProvider: new () => unknown;
};

/**
 * `url`: the API base of `h` served on a real socket for the test. The server is closed after the test,
 * before `h` (a fixture is torn down before those it depends on).
 */
const test = harnessTest().extend<{ url: string }>({
  url: async ({ h }, use) => {
    const port = await freePort();
    const server = serve({ fetch: h.app.fetch, port, hostname: '127.0.0.1' });
    try {
      await use(`http://127.0.0.1:${port}/api/`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  },
});

/** Resolves on the SDK's next `event`, or fails after {@link STATE_TIMEOUT_MS}. */
const next = (sdk: UnleashSdk, event: SdkEvents) => {
  const seen = new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${event}" within ${STATE_TIMEOUT_MS} ms`)), STATE_TIMEOUT_MS);
    sdk.once(event, (payload) => { clearTimeout(timer); resolve(payload); });
  });
  // Awaited later (or not at all, when the test fails first): never an unhandled rejection.
  seen.catch(() => undefined);
  return seen;
};

test('the Node SDK registers and sends metrics; counts and lastSeenAt show in the admin API', async ({ h, url }) => {
  await createFlag(h, 'checkout');
  await createFlag(h, 'quiet');
  // The served flags say what the bootstrap says, so the answers hold before and after the SDK's first fetch.
  const checkout = '/api/admin/projects/default/features/checkout';
  expect((await h.json('POST', `${checkout}/environments/development/strategies`, { name: 'default' })).status).toBe(200);
  expect((await h.json('POST', `${checkout}/environments/development/on`)).status).toBe(200);
  expect((await h.json('PUT', `${checkout}/variants`, [{ name: 'blue', weightType: 'variable', weight: 1000 }])).status).toBe(200);
  const token = await clientToken(h, 'development');
  const warnings: string[] = [];
  const sdk = new Unleash({
    appName: 'sdk-usage-test', instanceId: 'sdk-instance-1', url, customHeaders: { Authorization: token },
    refreshInterval: 200, metricsInterval: 200, disableMetrics: false, storageProvider: new InMemStorageProvider(),
    bootstrap: { data: [
      { name: 'checkout', enabled: true, strategies: [{ name: 'default', parameters: {}, constraints: [] }], variants: [{ name: 'blue', weight: 1000, stickiness: 'default' }] },
      { name: 'quiet', enabled: false, strategies: [] },
    ] },
  });
  sdk.on('error', () => {});
  sdk.on('warn', (message) => warnings.push(String(message)));
  try {
    await next(sdk, 'registered');
    const sent = next(sdk, 'sent');
    for (let i = 0; i < 3; i += 1) expect(sdk.isEnabled('checkout')).toBe(true);
    expect(sdk.isEnabled('quiet')).toBe(false);
    expect(sdk.getVariant('checkout').name).toBe('blue');
    expect(sdk.isEnabled('not-a-flag')).toBe(false);
    await sent;
    await h.registry.usage.flush();

    expect(await countedBuckets(h, 'checkout')).toEqual([expect.objectContaining({ environment: 'development', yes: 4, no: 0, variants: { blue: 1 } })]);
    expect(await countedBuckets(h, 'quiet')).toEqual([expect.objectContaining({ environment: 'development', yes: 0, no: 1 })]);
    const usage = await h.json('GET', '/api/admin/client-metrics/features/checkout');
    expect(usage.body.seenApplications).toEqual(['sdk-usage-test']);
    const flag = (await h.json('GET', flagPath('checkout'))).body;
    expect(flag.lastSeenAt).toEqual(expect.any(String));
    expect(flag.environments.find((e: { name: string }) => e.name === 'development').lastSeenAt).toBe(flag.lastSeenAt);
    const app = await h.json('GET', '/api/admin/metrics/applications/sdk-usage-test');
    expect(app.body).toMatchObject({ appName: 'sdk-usage-test', sdkVersion: 'unleash-node-sdk:6.12.1', strategies: expect.arrayContaining(['default', 'flexibleRollout']) });
    expect(app.body.instances).toEqual([expect.objectContaining({ instanceId: 'sdk-instance-1', environment: 'development', clientIp: expect.stringMatching(/127\.0\.0\.1/) })]);
    // Metrics kept flowing: the SDK never met a status that stops them.
    expect(warnings.filter((w) => /client\/(metrics|register)/.test(w))).toEqual([]);
  } finally {
    sdk.destroy();
  }
});
