/**
 * A name that is not well-formed Unicode (a lone surrogate, `"x\ud800"`, valid JSON) on the SDK routes: refused
 * at the schema on every route that takes it; and a record no key of the store can hold, should one be pending
 * anyway, is left out of the flush, reported and counted, while every other count and registration is written
 * and a stop goes on to its final snapshots.
 */
import { describe, expect } from 'vitest';
import { expectError } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN, type Harness } from '../../helpers/harness.js';
import { clientToken, countedBuckets, createFlag, flagPath, frontendToken, nodeMetricsBody, nodeRegisterBody, postMetrics } from './usage-fixtures.js';

const test = harnessTest();
const LONE = 'x\ud800';
const applications = async (h: Harness) =>
  ((await h.json('GET', '/api/admin/metrics/applications')).body.applications as { appName: string }[]).map((a) => a.appName);

describe('a lone surrogate on the SDK routes', () => {
  const register = (fields: Record<string, unknown>) => ({ ...nodeRegisterBody(), ...fields });
  const metrics = (fields: Record<string, unknown>) => ({ ...nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }), ...fields });
  const bulk = (app: Record<string, unknown>, entry: Record<string, unknown>) => ({
    applications: [{ ...nodeRegisterBody(), ...app }],
    metrics: [{ featureName: 'checkout', appName: 'edge-app', environment: 'development', timestamp: new Date().toISOString(), yes: 1, no: 0, variants: {}, ...entry }],
  });
  const cases: [string, string, 'client' | 'frontend', unknown, string][] = [
    ['client register, appName', '/api/client/register', 'client', register({ appName: LONE }), 'appName'],
    ['client register, instanceId', '/api/client/register', 'client', register({ instanceId: LONE }), 'instanceId'],
    ['client register, a strategy', '/api/client/register', 'client', register({ strategies: ['default', LONE] }), 'strategies'],
    ['client metrics, appName', '/api/client/metrics', 'client', metrics({ appName: LONE }), 'appName'],
    ['client metrics, instanceId', '/api/client/metrics', 'client', metrics({ instanceId: LONE }), 'instanceId'],
    ['client metrics, sdkVersion', '/api/client/metrics', 'client', metrics({ sdkVersion: LONE }), 'sdkVersion'],
    ['client metrics, a variant', '/api/client/metrics', 'client', nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: { [LONE]: 1 } } }), 'bucket'],
    ['frontend register, appName', '/api/frontend/client/register', 'frontend', register({ appName: LONE }), 'appName'],
    ['frontend metrics, instanceId', '/api/frontend/client/metrics', 'frontend', metrics({ instanceId: LONE }), 'instanceId'],
    ['bulk, an application\'s appName', '/api/client/metrics/bulk', 'client', bulk({ appName: LONE }, {}), 'applications'],
    ['bulk, a metric\'s appName', '/api/client/metrics/bulk', 'client', bulk({}, { appName: LONE }), 'metrics'],
    ['bulk, a metric\'s environment', '/api/client/metrics/bulk', 'client', bulk({}, { environment: LONE }), 'metrics'],
  ];

  test.for(cases)('%s: 400 naming the property, nothing recorded', async ([, path, kind, body, property], { h }) => {
    await createFlag(h, 'checkout');
    const token = kind === 'client' ? await clientToken(h) : await frontendToken(h);
    const refused = await h.json('POST', path, body, { token });
    expectError(refused, 400, 'ValidationError', /must be well-formed Unicode text/);
    expect(refused.body.message).toContain(`"${property}`);
    await h.registry.usage.flush();
    expect(await applications(h)).toEqual([]);
    expect(await countedBuckets(h, 'checkout')).toEqual([]);
  });

  test('a surrogate pair (an emoji) is well-formed and accepted', async ({ h }) => {
    const token = await clientToken(h);
    expect((await h.req('POST', '/api/client/register', nodeRegisterBody('shop-🚩', 'pod-🚩'), { token })).status).toBe(202);
    await h.registry.usage.flush();
    expect(await applications(h)).toEqual(['shop-🚩']);
  });
});

describe('a record the store cannot hold, pending in the usage actor', () => {
  /** A sighting whose name no key can hold: what the schema now refuses, as it could arrive before it did. */
  const badSighting = () => ({
    appName: LONE, instanceId: 'i-1', environment: 'development', projects: ['*'], sdkVersion: null, clientIp: null, at: new Date().toISOString(),
  });

  test('is left out of the flush, logged and counted as a failed flush; every other count and registration is written', async ({ h }) => {
    await createFlag(h, 'checkout');
    const token = await clientToken(h);
    await h.req('POST', '/api/client/register', nodeRegisterBody('checkout-service'), { token });
    await postMetrics(h, token, nodeMetricsBody({ checkout: { yes: 3, no: 1, variants: {} } }));
    h.registry.usage.recordRegistration(badSighting());
    await h.registry.usage.flush();
    // What was left out is not shown either: the list and every page of it answer as a restart would.
    expect(await applications(h)).toEqual(['checkout-service']);
    expect((await h.json('GET', '/api/admin/metrics/applications/checkout-service')).status).toBe(200);
    expect((await countedBuckets(h, 'checkout')).map((b) => [b.yes, b.no])).toEqual([[3, 1]]);
    expect((await h.json('GET', flagPath('checkout'))).body.lastSeenAt).not.toBeNull();
    const warning = h.logs().find((line) => String(line['msg']).startsWith('usage metrics: records the store cannot hold'));
    expect(warning).toMatchObject({ records: 2, first: [expect.stringContaining('the application "x\\ud800"'), expect.stringContaining('the application "x\\ud800"')] });
    const scrape = await (await h.req('GET', '/internal-backstage/prometheus', undefined, { token: ADMIN_TOKEN })).text();
    expect(scrape).toMatch(/^flagpole_usage_flushes_total\{outcome="failed"\} 1$/m);
    await h.restart();
    expect(await applications(h)).toEqual(['checkout-service']);
    expect((await countedBuckets(h, 'checkout')).map((b) => [b.yes, b.no])).toEqual([[3, 1]]);
  });

  test('a stop with it pending still writes the last interval and the final snapshots', async ({ h }) => {
    await createFlag(h, 'checkout');
    const token = await clientToken(h);
    await postMetrics(h, token, nodeMetricsBody({ checkout: { yes: 2, no: 0, variants: {} } }));
    h.registry.usage.recordRegistration(badSighting());
    // What SIGTERM runs once the server is closed (src/main.ts): it must resolve, not throw before the snapshots.
    await h.restart();
    expect((await h.json('GET', flagPath('checkout'))).status).toBe(200);
    expect((await countedBuckets(h, 'checkout')).map((b) => b.yes)).toEqual([2]);
    expect(await applications(h)).toEqual(['checkout-service']);
  });
});
