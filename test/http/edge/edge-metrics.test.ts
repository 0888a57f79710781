/**
 * The metrics Unleash Edge forwards (test/fixtures/edge/bulk-metrics-request.json: one environment's batch, with
 * every application Edge knows and a metric entry of another environment, as Edge builds them) land as if the SDKs
 * behind it had posted them: counts, `lastSeenAt`, applications and instances, read back through the admin API.
 * A client token records its own environment's entries only, as Unleash filters them; an admin token records all.
 * Edge's report on itself (`POST /api/client/metrics/edge`) is accepted and not kept.
 */
import { describe, expect } from 'vitest';
import { expectError } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN, type Harness } from '../../helpers/harness.js';
import { clientToken, countedBuckets, createFlag, flagPath, frontendToken } from '../usage/usage-fixtures.js';
import { chronoTime, edgeBody, edgePost } from './edge-fixtures.js';

const BULK = '/api/client/metrics/bulk';
const EDGE = '/api/client/metrics/edge';
const test = harnessTest({ arrange: (h) => createFlag(h, 'checkout') });

/** The fixture batch, its SDK bucket started half a minute ago. */
const batch = () => edgeBody('bulk-metrics-request', { STARTED: chronoTime(Date.now() - 600_000), BUCKET_START: chronoTime(Date.now() - 30_000) });

/** Posts as Edge and expects 202 with no body. */
async function accepted(h: Harness, path: string, body: unknown, token: string): Promise<void> {
  const r = await edgePost(h, path, body, token);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  expect(r.body).toBeNull();
}

const appNames = async (h: Harness) => ((await h.json('GET', '/api/admin/metrics/applications')).body.applications as { appName: string }[]).map((a) => a.appName);
const lastSeen = async (h: Harness, environment: string) =>
  ((await h.json('GET', flagPath('checkout'))).body.environments as { name: string; lastSeenAt: string | null }[]).find((e) => e.name === environment)?.lastSeenAt;

describe('POST /api/client/metrics/bulk', () => {
  test('a development batch sent with a development token counts its entries and registers its SDKs; the production ones are left to their own batch', async ({ h }) => {
    await accepted(h, BULK, batch(), await clientToken(h, 'development'));
    await h.registry.usage.flush();

    expect(await countedBuckets(h, 'checkout')).toEqual([expect.objectContaining({ environment: 'development', yes: 7, no: 2, variants: { blue: 4, green: 3 } })]);
    expect(await lastSeen(h, 'development')).toEqual(expect.any(String));
    expect(await lastSeen(h, 'production')).toBeNull();
    expect((await h.json('GET', flagPath('checkout'))).body.lastSeenAt).toBe(await lastSeen(h, 'development'));
    expect((await h.json('GET', '/api/admin/client-metrics/features/checkout')).body.seenApplications).toEqual(['checkout-service']);
    expect(await appNames(h)).toEqual(['checkout-service']);
    const app = (await h.json('GET', '/api/admin/metrics/applications/checkout-service')).body;
    expect(app).toMatchObject({ sdkVersion: 'unleash-node-sdk:6.12.1', strategies: expect.arrayContaining(['default', 'flexibleRollout']) });
    expect(app.instances).toEqual([expect.objectContaining({ instanceId: 'checkout-7f9c', environment: 'development', sdkVersion: 'unleash-node-sdk:6.12.1' })]);
    // A name that is no flag is not kept, as in an SDK's own post.
    expect((await h.json('GET', flagPath('not-a-flag'))).status).toBe(404);

    // The production batch comes with a production token: its entries land there.
    await accepted(h, BULK, batch(), await clientToken(h, 'production'));
    await h.registry.usage.flush();
    expect(await countedBuckets(h, 'checkout')).toEqual(expect.arrayContaining([
      expect.objectContaining({ environment: 'development', yes: 7, no: 2 }),
      expect.objectContaining({ environment: 'production', yes: 0, no: 5 }),
    ]));
    expect(await lastSeen(h, 'production')).toEqual(expect.any(String));
    expect(await appNames(h)).toEqual(['billing-service', 'checkout-service']);
    const billing = (await h.json('GET', '/api/admin/metrics/applications/billing-service')).body;
    expect(billing.instances).toEqual([expect.objectContaining({ instanceId: 'billing-1a2b', environment: 'production' })]);
  });

  test('an admin token records every environment of the batch', async ({ h }) => {
    await accepted(h, BULK, batch(), ADMIN_TOKEN);
    await h.registry.usage.flush();
    const buckets = await countedBuckets(h, 'checkout');
    expect(buckets.map((b) => [b.environment, b.yes, b.no]).sort()).toEqual([['development', 7, 2], ['production', 0, 5]]);
    expect(await appNames(h)).toEqual(['billing-service', 'checkout-service']);
  });

  test('a malformed batch is a 400, a frontend token a 403, no token a 401; none records anything', async ({ h }) => {
    const token = await clientToken(h, 'development');
    const entry = batch().metrics[0];
    for (const metrics of [[{ ...entry, yes: -1 }], [{ ...entry, featureName: '__proto__' }], [{ ...entry, appName: undefined }], [{ ...entry, timestamp: 'yesterday' }]]) {
      expectError(await edgePost(h, BULK, { applications: [], metrics }, token), 400, 'ValidationError');
    }
    expectError(await edgePost(h, BULK, { applications: [{ appName: 'no-start' }], metrics: [] }, token), 400, 'ValidationError', /started/);
    expectError(await edgePost(h, BULK, { applications: [], metrics: Array.from({ length: 10_001 }, () => ({ featureName: 'f', appName: 'a', environment: 'd', timestamp: 0 })) }, token), 400, 'ValidationError', /at most 10000/);
    expectError(await edgePost(h, BULK, batch(), await frontendToken(h, 'development')), 403, 'NoAccessError');
    expectError(await edgePost(h, BULK, batch(), null), 401, 'AuthenticationRequired');
    await h.registry.usage.flush();
    expect(await countedBuckets(h, 'checkout')).toEqual([]);
    expect(await appNames(h)).toEqual([]);
  });
});

describe('POST /api/client/metrics/bulk without one of its lists', () => {
  test('answers 400 naming the list, as Unleash (its bulkMetricsSchema requires both), and records nothing', async ({ h }) => {
    const token = await clientToken(h, 'development');
    const { applications, metrics } = batch();
    for (const [body, missing] of [[{ metrics }, 'applications'], [{ applications }, 'metrics'], [{}, 'applications']] as const) {
      const refused = await edgePost(h, BULK, body, token);
      expectError(refused, 400, 'ValidationError', new RegExp(`^"${missing}": is required`));
    }
    await h.registry.usage.flush();
    expect(await countedBuckets(h, 'checkout')).toEqual([]);
    expect(await appNames(h)).toEqual([]);
  });
});

describe('POST /api/client/metrics/edge', () => {
  test('Edge\'s report on itself is accepted and not kept; a body that is no such report is a 400, no token a 401', async ({ h }) => {
    const token = await clientToken(h, 'development');
    await accepted(h, EDGE, edgeBody('instance-data-request', { STARTED: chronoTime(Date.now() - 3_600_000) }), token);
    for (const body of [{}, { identifier: 7, appName: 'unleash-edge', edgeVersion: '20.4.1' }, []]) {
      expectError(await edgePost(h, EDGE, body, token), 400, 'ValidationError');
    }
    expectError(await edgePost(h, EDGE, edgeBody('instance-data-request', { STARTED: chronoTime(Date.now()) }), null), 401, 'AuthenticationRequired');
    await h.registry.usage.flush();
    expect(await appNames(h)).toEqual([]);
  });
});
