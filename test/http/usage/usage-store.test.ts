/**
 * Usage metrics beside the flags: they never move a flag's version or `ETag` nor make a conditional write
 * fail; `lastSeenAt` shows on the flag record, the detail's environments, the list and the overview once a
 * flush wrote it; counts survive a restart, a crash loses at most the interval since the last flush, and
 * buckets older than 48 h are dropped.
 */
import { describe, expect } from 'vitest';
import { HOUR_MS, hourStart } from '../../../src/domain/usage-records.js';
import { clockPast } from '../../helpers/clock.js';
import { positions } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/harness.js';
import { P, ISO, clientToken, countedBuckets, createFlag, flagPath, nodeMetricsBody, postMetrics, storedKeys } from './usage-fixtures.js';
import { storeOf } from '../../helpers/store-of.js';
import { untilState } from '../../helpers/wait.js';

/** Every test starts with a development client token (`sdk`) and flag `checkout`. */
const test = harnessTest().extend<{ sdk: string }>({
  sdk: [async ({ h }, use) => {
    const sdk = await clientToken(h);
    await createFlag(h, 'checkout');
    await use(sdk);
  }, { auto: true }],
});

const seen = (yes = 1, no = 0) => nodeMetricsBody({ checkout: { yes, no, variants: {} } });

describe('metrics and flag writes', () => {
  test('metrics posts and their flush move no version and no ETag; after the first (which records the flag\'s pre-live stage), no log position', async ({ h, sdk }) => {
    const before = await h.req('GET', flagPath('checkout'));
    const etag = before.headers.get('etag');
    await postMetrics(h, sdk, seen());
    const at = positions(h);
    for (let i = 0; i < 5; i += 1) await postMetrics(h, sdk, seen());
    await h.registry.usage.flush();
    const after = await h.req('GET', flagPath('checkout'));
    expect(after.headers.get('etag')).toBe(etag);
    expect(positions(h)).toBe(at);
    expect(((await after.json()) as { lastSeenAt: string }).lastSeenAt).toMatch(ISO);
  });

  test('conditional writes succeed while metrics are posted and flushed concurrently', async ({ h, sdk }) => {
    let etag = (await h.req('GET', flagPath('checkout'))).headers.get('etag')!;
    for (let round = 0; round < 10; round += 1) {
      const posts = Array.from({ length: 20 }, () => h.req('POST', '/api/client/metrics', seen(), { token: sdk }));
      const write = h.req('PUT', flagPath('checkout'), { name: 'checkout', description: `round ${round}` }, { headers: { 'if-match': etag } });
      const flush = h.registry.usage.flush();
      const [answer, ...others] = await Promise.all([write, ...posts]);
      await flush;
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(others.every((r) => r.status === 202)).toBe(true);
      etag = answer.headers.get('etag')!;
    }
    await h.registry.usage.flush();
    expect((await countedBuckets(h, 'checkout'))[0]!.yes).toBe(200);
  });
});

describe('lastSeenAt', () => {
  test('null until an SDK reports the flag; then on the record, the detail environment, the list and the overview, once flushed', async ({ h, sdk }) => {
    await createFlag(h, 'idle');
    const list = async () => (await h.json('GET', `${P}/features`)).body.features as { name: string; lastSeenAt: string | null }[];
    const overview = async () => (await h.json('GET', P)).body.features as { name: string; lastSeenAt: string | null }[];
    // Cached before anything is seen.
    expect((await list()).map((f) => f.lastSeenAt)).toEqual([null, null]);
    expect((await overview()).map((f) => f.lastSeenAt)).toEqual([null, null]);
    const postedAt = Date.now();
    await postMetrics(h, sdk, seen());
    expect((await h.json('GET', flagPath('checkout'))).body.lastSeenAt).toBeNull();
    await h.registry.usage.flush();
    const detail = (await h.json('GET', flagPath('checkout'))).body;
    expect(Date.parse(detail.lastSeenAt)).toBeGreaterThanOrEqual(postedAt - 5);
    expect(detail.environments.map((e: { name: string; lastSeenAt: string | null }) => [e.name, e.lastSeenAt])).toEqual([['development', detail.lastSeenAt], ['production', null]]);
    expect((await list()).map((f) => [f.name, f.lastSeenAt])).toEqual([['checkout', detail.lastSeenAt], ['idle', null]]);
    expect((await overview()).map((f) => [f.name, f.lastSeenAt])).toEqual([['checkout', detail.lastSeenAt], ['idle', null]]);
    // The answers of writes show it too.
    const put = await h.json('PUT', flagPath('checkout'), { name: 'checkout', description: 'x' });
    expect(put.body.lastSeenAt).toBe(detail.lastSeenAt);
    const patch = await h.json('PATCH', flagPath('checkout'), [{ op: 'replace', path: '/description', value: 'y' }]);
    expect(patch.body.lastSeenAt).toBe(detail.lastSeenAt);
    const clone = await h.json('POST', `${flagPath('checkout')}/clone`, { name: 'copy' });
    expect(clone.body.lastSeenAt).toBeNull();
  });

  test('the flag is the latest over its environments', async ({ h, sdk }) => {
    const prod = await clientToken(h, 'production');
    await postMetrics(h, sdk, seen());
    await h.registry.usage.flush();
    const first = (await h.json('GET', flagPath('checkout'))).body.lastSeenAt as string;
    await clockPast(first);
    await postMetrics(h, prod, seen());
    await h.registry.usage.flush();
    const detail = (await h.json('GET', flagPath('checkout'))).body;
    expect(detail.lastSeenAt > first).toBe(true);
    expect(Object.fromEntries(detail.environments.map((e: { name: string; lastSeenAt: string }) => [e.name, e.lastSeenAt]))).toEqual({ development: first, production: detail.lastSeenAt });
  });

  test('a deleted flag takes its usage with it: a flag created again under its name starts unseen', async ({ h, sdk }) => {
    await postMetrics(h, sdk, seen());
    await h.registry.usage.flush();
    expect(await storedKeys(h)).not.toEqual([]);
    expect((await h.req('DELETE', flagPath('checkout'))).status).toBe(202);
    expect((await h.req('POST', `${P}/delete`, { features: ['checkout'] })).status).toBe(200);
    await h.registry.usage.flush();
    // Counts and sightings are gone (applications stay, and on several nodes' store the flushes' journal).
    expect((await storedKeys(h)).filter((k) => k.startsWith('use/c/') || k.startsWith('use/s/'))).toEqual([]);
    await createFlag(h, 'checkout');
    expect((await h.json('GET', flagPath('checkout'))).body.lastSeenAt).toBeNull();
  });
});

describe('durability', () => {
  test('counts, lastSeenAt and applications survive a restart after a flush', async ({ h, sdk }) => {
    await postMetrics(h, sdk, nodeMetricsBody({ checkout: { yes: 2, no: 1, variants: { blue: 2 } } }));
    await h.registry.usage.flush();
    const detail = (await h.json('GET', flagPath('checkout'))).body;
    const buckets = await countedBuckets(h, 'checkout');
    await h.restart();
    expect((await h.json('GET', flagPath('checkout'))).body).toEqual(detail);
    expect(await countedBuckets(h, 'checkout')).toEqual(buckets);
    expect((await h.json('GET', '/api/admin/metrics/applications')).body.total).toBe(1);
  });

  test('a clean stop writes the last interval', async ({ h, sdk }) => {
    await postMetrics(h, sdk, seen(4));
    await h.restart();
    expect((await countedBuckets(h, 'checkout')).map((b) => b.yes)).toEqual([4]);
  });

  test('a crash loses at most the interval since the last flush', async ({ h, sdk }) => {
    await postMetrics(h, sdk, seen(3));
    await h.registry.usage.flush();
    const lastSeenAt = (await h.json('GET', flagPath('checkout'))).body.lastSeenAt;
    await postMetrics(h, sdk, seen(100));
    // The store closes without the usage being flushed: what a crash does.
    h.registry.usage.abandon();
    await h.restart();
    expect((await countedBuckets(h, 'checkout')).map((b) => b.yes)).toEqual([3]);
    expect((await h.json('GET', flagPath('checkout'))).body.lastSeenAt).toBe(lastSeenAt);
  });

  test('a damaged usage entry is reported, dropped and deleted; the start goes on', async ({ h, sdk }) => {
    await postMetrics(h, sdk, seen(2));
    await h.registry.usage.flush();
    await storeOf(h.registry).writeUnsynced([
      { type: 'put', key: 'use/c/2026-11-23T19/default/checkout/production', value: '1:00000000:{"yes":1}' },
      { type: 'put', key: 'use/x/unknown', value: 'junk' },
    ]);
    await h.restart();
    const warnings = h.logs().filter((line) => String(line['msg']).startsWith('usage metrics:')).map((line) => String(line['msg']));
    expect(warnings).toEqual([
      expect.stringContaining('corrupt record at key "use/c/2026-11-23T19/default/checkout/production": checksum mismatch'),
      expect.stringContaining('use/x/unknown'),
    ]);
    expect((await countedBuckets(h, 'checkout')).map((b) => b.yes)).toEqual([2]);
    await h.registry.usage.flush();
    expect((await storedKeys(h)).filter((k) => k.includes('production') || k.startsWith('use/x/'))).toEqual([]);
  });

  test('METRICS_FLUSH_SECONDS: counts are written by the timer', async () => {
    const timed = await harness({ METRICS_FLUSH_SECONDS: '1' });
    try {
      const token = await clientToken(timed);
      await createFlag(timed, 'checkout');
      await postMetrics(timed, token, seen(7));
      // No flush is asked for: the counts reach the disk by the 1 s timer alone.
      await expect.poll(async () => (await storedKeys(timed, 'use/c/')).length, untilState()).toBeGreaterThan(0);
      expect((await countedBuckets(timed, 'checkout')).map((b) => b.yes)).toEqual([7]);
    } finally {
      await timed.close();
    }
  });
});

describe('48 hours', () => {
  test('a bucket that ended more than 48 h ago is not counted, but the flag is seen', async ({ h, sdk }) => {
    const old = Date.now() - 49 * HOUR_MS;
    await postMetrics(h, sdk, { ...seen(), bucket: { start: new Date(old - 60_000).toISOString(), stop: new Date(old).toISOString(), toggles: { checkout: { yes: 9, no: 0 } } } });
    await h.registry.usage.flush();
    expect(await countedBuckets(h, 'checkout')).toEqual([]);
    expect((await h.json('GET', flagPath('checkout'))).body.lastSeenAt).toMatch(ISO);
  });

  test('buckets older than 48 h are dropped at a flush, in memory and on disk; the raw answer spans 48 hours', async ({ h, sdk }) => {
    await postMetrics(h, sdk, seen(5));
    await h.registry.usage.flush();
    const raw = (await h.json('GET', '/api/admin/client-metrics/features/checkout/raw')).body.data as { timestamp: string }[];
    expect(raw.length).toBe(48);
    expect(Date.parse(raw[0]!.timestamp)).toBe(hourStart(Date.now()) - 47 * HOUR_MS);
    expect((await h.json('GET', '/api/admin/client-metrics/features/checkout/raw?hoursBack=2')).body.data.length).toBe(2);
    expect((await h.json('GET', '/api/admin/client-metrics/features/checkout/raw?hoursBack=49')).status).toBe(400);
    expect((await storedKeys(h, 'use/c/')).length).toBe(1);
    await h.registry.usage.flush(Date.now() + 48 * HOUR_MS);
    // 48 h later this hour ended 47 h ago: still kept.
    expect(h.registry.usage.counts.cells('default', 'checkout').length).toBe(1);
    expect((await storedKeys(h, 'use/c/')).length).toBe(1);
    await h.registry.usage.flush(Date.now() + 50 * HOUR_MS);
    expect(h.registry.usage.counts.cells('default', 'checkout')).toEqual([]);
    expect(await storedKeys(h, 'use/c/')).toEqual([]);
    // Instances unseen for 48 h went too; the application stays.
    expect(await storedKeys(h, 'use/i/')).toEqual([]);
    expect((await storedKeys(h, 'use/a/')).length).toBe(1);
  });
});
