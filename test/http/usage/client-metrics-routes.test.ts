/**
 * `POST /api/client/register`, `POST /api/client/metrics` and their `/api/frontend/client/*` twins through
 * the HTTP pipeline: the exact bodies the SDKs send answer 202, malformed ones 400, the wrong caller 401 or
 * 403, and a refused post changes nothing (no log position, no usage after a flush).
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../../helpers/harness.js';
import { createProject, createUser, personalToken, READER, grant } from '../access/access-fixtures.js';
import {
  browserMetricsBody, clientToken, countedBuckets, frontendToken, createFlag, nodeMetricsBody, nodeRegisterBody, postMetrics, storedKeys,
} from './usage-fixtures.js';

/** Every test starts with a development client token (`sdk`), a frontend token (`browser`) and flag `checkout`. */
const test = harnessTest().extend<{ sdk: string; browser: string }>({
  sdk: [async ({ h }, use) => {
    const sdk = await clientToken(h);
    await createFlag(h, 'checkout');
    await use(sdk);
  }, { auto: true }],
  browser: async ({ h }, use) => use(await frontendToken(h)),
});

describe('what SDKs send', () => {
  test('the Node SDK registration: 202, no body; the application and instance are listed after a flush', async ({ h, sdk }) => {
    const r = await h.req('POST', '/api/client/register', nodeRegisterBody(), { token: sdk });
    expect(r.status).toBe(202);
    expect(await r.text()).toBe('');
    await h.registry.usage.flush();
    const list = await h.json('GET', '/api/admin/metrics/applications');
    expect(list.body).toEqual({
      total: 1,
      applications: [{
        appName: 'checkout-service', sdkVersion: 'unleash-node-sdk:6.12.1', strategies: nodeRegisterBody().strategies,
        usage: [{ project: '*', environments: ['development'] }], createdAt: expect.any(String), updatedAt: expect.any(String),
      }],
    });
    const detail = await h.json('GET', '/api/admin/metrics/applications/checkout-service');
    expect(detail.status).toBe(200);
    expect(detail.body.instances).toEqual([{
      appName: 'checkout-service', instanceId: 'ci-runner-4711', sdkVersion: 'unleash-node-sdk:6.12.1', clientIp: null,
      environment: 'development', createdAt: expect.any(String), lastSeen: expect.any(String),
    }]);
    expectError(await h.json('GET', '/api/admin/metrics/applications/nobody'), 404, 'NotFoundError', /nobody/);
  });

  test('a registration then metrics before one flush: the instance keeps the SDK version only the registration told', async ({ h, sdk }) => {
    expect((await h.req('POST', '/api/client/register', nodeRegisterBody(), { token: sdk })).status).toBe(202);
    await postMetrics(h, sdk, nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }));
    await h.registry.usage.flush();
    const detail = await h.json('GET', '/api/admin/metrics/applications/checkout-service');
    expect(detail.body.instances).toEqual([expect.objectContaining({ instanceId: 'ci-runner-4711', sdkVersion: 'unleash-node-sdk:6.12.1' })]);
  });

  test('the Node SDK metrics (with impactMetrics): 202, counted in the token\'s environment after a flush', async ({ h, sdk }) => {
    const body = nodeMetricsBody(
      { checkout: { yes: 3, no: 1, variants: { blue: 2, disabled: 1 } } },
      'checkout-service', 'ci-runner-4711',
      { impactMetrics: [{ name: 'purchases', help: 'purchases made', type: 'counter', samples: [{ labels: {}, value: 0 }] }] },
    );
    await postMetrics(h, sdk, body);
    expect(await countedBuckets(h, 'checkout')).toEqual([]); // not before the flush
    await h.registry.usage.flush();
    expect(await countedBuckets(h, 'checkout')).toEqual([
      { featureName: 'checkout', environment: 'development', timestamp: expect.stringMatching(/T\d\d:00:00\.000Z$/), yes: 3, no: 1, variants: { blue: 2, disabled: 1 } },
    ]);
    const usage = await h.json('GET', '/api/admin/client-metrics/features/checkout');
    expect(usage.body).toEqual({
      version: 1, maturity: 'stable', featureName: 'checkout',
      lastHourUsage: [{ environment: 'development', timestamp: expect.any(String), yes: 3, no: 1 }],
      seenApplications: ['checkout-service'],
    });
  });

  test('the browser SDK body on the frontend routes, and a Bearer token', async ({ h, browser }) => {
    await postMetrics(h, `Bearer ${browser}`, browserMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }), '/api/frontend/client/metrics');
    const r = await h.req('POST', '/api/frontend/client/register', nodeRegisterBody('web-shop', 'browser'), { token: browser });
    expect(r.status).toBe(202);
    await h.registry.usage.flush();
    expect((await countedBuckets(h, 'checkout')).map((b) => b.yes)).toEqual([1]);
    expect((await h.json('GET', '/api/admin/metrics/applications')).body.applications.map((a: { appName: string }) => a.appName)).toEqual(['web-shop']);
  });

  test('every extra field is accepted; null and empty instance ids mean "default"; yes and no default to 0', async ({ h, sdk }) => {
    await postMetrics(h, sdk, {
      appName: 'go-app', instanceId: null, environment: 'production', sdkVersion: 'unleash-client-go:4.1.0', sdkFlavor: 'x', unknown: { deep: [1, 2] },
      bucket: { start: '2026-01-01T00:00:00.123456789Z', stop: Date.now(), toggles: { checkout: { yes: 2, extra: true }, other: { no: 0 } } },
    });
    const r = await h.req('POST', '/api/client/register', { appName: 'go-app', instanceId: '', started: 1_700_000_000, interval: 15, strategies: [], whatever: 1 }, { token: sdk });
    expect(r.status).toBe(202);
    await h.registry.usage.flush();
    // A client token counts in its own environment, whatever the body says.
    expect(await countedBuckets(h, 'checkout')).toEqual([expect.objectContaining({ environment: 'development', yes: 2, no: 0 })]);
    const detail = await h.json('GET', '/api/admin/metrics/applications/go-app');
    expect(detail.body.instances.map((i: { instanceId: string }) => i.instanceId)).toEqual(['default']);
  });

  test('unknown flag names are accepted and create nothing', async ({ h, sdk }) => {
    await postMetrics(h, sdk, nodeMetricsBody({ 'no-such-flag': { yes: 5, no: 0, variants: {} }, '': { yes: 1, no: 0, variants: {} } }));
    await h.registry.usage.flush();
    expectError(await h.json('GET', '/api/admin/client-metrics/features/no-such-flag'), 404, 'NotFoundError');
    expect((await h.json('GET', '/api/admin/projects/default/features')).body.features.map((f: { name: string }) => f.name)).toEqual(['checkout']);
    expect((await storedKeys(h, 'use/c/')).length).toBe(0);
  });

  test('a client token counts only in its projects; an admin token in the body\'s environment, else default', async ({ h }) => {
    await createProject(h, 'web');
    await createFlag(h, 'checkout', 'web');
    const webOnly = await clientToken(h, 'production', ['web']);
    await postMetrics(h, webOnly, nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }));
    await postMetrics(h, ADMIN_TOKEN, nodeMetricsBody({ checkout: { yes: 0, no: 2, variants: {} } }, 'a', 'b', { environment: 'development' }));
    await postMetrics(h, ADMIN_TOKEN, nodeMetricsBody({ checkout: { yes: 0, no: 4, variants: {} } }, 'a', 'b', { environment: 'nowhere' }));
    await h.registry.usage.flush();
    const counts = h.registry.usage.counts;
    expect(counts.cells('web', 'checkout').map(({ environment, yes, no }) => ({ environment, yes, no })).sort((a, b) => a.environment.localeCompare(b.environment)))
      .toEqual([{ environment: 'default', yes: 0, no: 4 }, { environment: 'development', yes: 0, no: 2 }, { environment: 'production', yes: 1, no: 0 }]);
    expect(counts.cells('default', 'checkout').map(({ environment, yes, no }) => ({ environment, yes, no })).sort((a, b) => a.environment.localeCompare(b.environment)))
      .toEqual([{ environment: 'default', yes: 0, no: 4 }, { environment: 'development', yes: 0, no: 2 }]);
  });
});

describe('the environment of a registration (Unleash 8: the token decides; no body field needed)', () => {
  test('without `environment`: a client token\'s own, an admin token\'s `default`; an admin token may still name one', async ({ h }) => {
    const production = await clientToken(h, 'production');
    expect((await h.req('POST', '/api/client/register', nodeRegisterBody('svc', 'from-client'), { token: production })).status).toBe(202);
    // A client token's environment wins over a body that names another (as Unleash, which no longer reads it).
    expect((await h.req('POST', '/api/client/register', { ...nodeRegisterBody('svc', 'client-says-dev'), environment: 'development' }, { token: production })).status).toBe(202);
    expect((await h.req('POST', '/api/client/register', nodeRegisterBody('svc', 'from-admin'), { token: ADMIN_TOKEN })).status).toBe(202);
    expect((await h.req('POST', '/api/client/register', { ...nodeRegisterBody('svc', 'admin-names-it'), environment: 'production' }, { token: ADMIN_TOKEN })).status).toBe(202);
    await postMetrics(h, ADMIN_TOKEN, nodeMetricsBody({ checkout: { yes: 3, no: 0, variants: {} } }, 'svc', 'admin-metrics'));
    await h.registry.usage.flush();
    const instances = (await h.json('GET', '/api/admin/metrics/applications/svc')).body.instances as { instanceId: string; environment: string }[];
    expect(Object.fromEntries(instances.map((i) => [i.instanceId, i.environment]))).toEqual({
      'from-client': 'production', 'client-says-dev': 'production', 'from-admin': 'default', 'admin-names-it': 'production', 'admin-metrics': 'default',
    });
    expect((await countedBuckets(h, 'checkout')).map((b: { environment: string; yes: number }) => [b.environment, b.yes])).toEqual([['default', 3]]);
  });
});

describe('malformed bodies: 400, and nothing changes', () => {
  const toggles = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { yes: 1, no: 0, variants: {} }]));
  const withToggles = (t: unknown) => ({ ...nodeMetricsBody({}), bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: t } });
  const proto = '{"appName":"a","bucket":{"start":"2026-01-01T00:00:00Z","stop":"2026-01-01T00:01:00Z","toggles":{"__proto__":{"yes":1,"no":0}}}}';
  const protoVariant = '{"appName":"a","bucket":{"start":"2026-01-01T00:00:00Z","stop":"2026-01-01T00:01:00Z","toggles":{"checkout":{"yes":1,"no":0,"variants":{"__proto__":1}}}}}';
  const metricsCases: [string, unknown, RegExp][] = [
    ['a negative count', withToggles({ checkout: { yes: -1, no: 0 } }), /yes/],
    ['a non-integer count', withToggles({ checkout: { yes: 1.5, no: 0 } }), /integer/],
    ['a count as a string', withToggles({ checkout: { yes: '1', no: 0 } }), /number/],
    ['an unsafe integer', withToggles({ checkout: { yes: 2 ** 53, no: 0 } }), /yes/],
    ['a negative variant count', withToggles({ checkout: { yes: 1, no: 0, variants: { a: -2 } } }), /variants/],
    ['10,001 flags', withToggles(toggles(10_001)), /10000 flags/],
    ['a 1 MB appName', { ...nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }), appName: 'a'.repeat(1_000_000) }, /appName/],
    ['__proto__ as a flag name', proto, /__proto__/],
    ['__proto__ as a variant name', protoVariant, /__proto__/],
    ['constructor as a flag name', withToggles({ constructor: { yes: 1, no: 0 } }), /constructor/],
    ['a 101-character flag name', withToggles({ ['x'.repeat(101)]: { yes: 1, no: 0 } }), /100 characters/],
    ['no bucket', { appName: 'a', instanceId: 'b' }, /bucket/],
    ['no appName', { bucket: { start: 0, stop: 0, toggles: {} } }, /appName/],
    ['a date that is no date', { appName: 'a', bucket: { start: 'yesterday', stop: '2026-01-01T00:00:00Z' } }, /start/],
    ['toggles as an array', withToggles([{ yes: 1 }]), /toggles/],
    ['an array body', [nodeMetricsBody({})], /appName/],
  ];
  test.for(metricsCases)('metrics with %s', async ([_name, body, message], { h, sdk, browser }) => {
    for (const [path, token] of [['/api/client/metrics', sdk], ['/api/frontend/client/metrics', browser]] as const) {
      await expectNoChange(h, async () => {
        const r = await h.json('POST', path, body, { token });
        expectError(r, 400, 'ValidationError', message);
      }, 'checkout');
    }
    await h.registry.usage.flush();
    expect(await storedKeys(h)).toEqual([]);
  });

  const registerCases: [string, unknown, RegExp][] = [
    ['no interval', { appName: 'a', started: new Date().toISOString(), strategies: [] }, /interval/],
    ['no started', { appName: 'a', interval: 1000, strategies: [] }, /started/],
    ['a negative interval', { ...nodeRegisterBody(), interval: -1 }, /interval/],
    ['strategies that are not strings', { ...nodeRegisterBody(), strategies: [{ name: 'x' }] }, /strategies/],
    ['a 1 MB appName', { ...nodeRegisterBody(), appName: 'a'.repeat(1_000_000) }, /appName/],
    ['__proto__ as appName', { ...nodeRegisterBody(), appName: '__proto__' }, /__proto__/],
  ];
  test.for(registerCases)('register with %s', async ([_name, body, message], { h, sdk }) => {
    await expectNoChange(h, async () => expectError(await h.json('POST', '/api/client/register', body, { token: sdk }), 400, 'ValidationError', message));
    await h.registry.usage.flush();
    expect(await storedKeys(h)).toEqual([]);
  });
});

describe('who may post', () => {
  test('401 for no token and for an unknown one; nothing changes', async ({ h }) => {
    for (const token of [null, '*:development.unknown0123456789abcdef']) {
      await expectNoChange(h, async () => expectError(await h.json('POST', '/api/client/metrics', nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }), { token }), 401, 'AuthenticationRequired'));
      await expectNoChange(h, async () => expectError(await h.json('POST', '/api/client/register', nodeRegisterBody(), { token }), 401, 'AuthenticationRequired'));
    }
    await h.registry.usage.flush();
    expect(await storedKeys(h)).toEqual([]);
  });

  test('403 for personal tokens (a Reader, even a root Admin) on the client API, and for a client token on the usage reads', async ({ h, sdk }) => {
    await createProject(h, 'web');
    const reader = await createUser(h, { username: 'reader', rootRole: 3 });
    await grant(h, 'web', reader, READER);
    const admin = await createUser(h, { username: 'boss', rootRole: 1 });
    for (const token of [await personalToken(h, reader), await personalToken(h, admin)]) {
      for (const path of ['/api/client/metrics', '/api/frontend/client/metrics']) {
        await expectNoChange(h, async () => expectError(await h.json('POST', path, nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }), { token }), 403, 'NoAccessError', /CLIENT_API|FRONTEND_API/));
      }
      await expectNoChange(h, async () => expectError(await h.json('POST', '/api/client/register', nodeRegisterBody(), { token }), 403, 'NoAccessError', /client or admin API tokens/));
    }
    expectError(await h.json('GET', '/api/admin/client-metrics/features/checkout', undefined, { token: sdk }), 403, 'NoAccessError', /Client tokens cannot use the admin API/);
    expectError(await h.json('GET', '/api/admin/metrics/applications', undefined, { token: sdk }), 403, 'NoAccessError');
    await h.registry.usage.flush();
    expect(await storedKeys(h)).toEqual([]);
  });
});
