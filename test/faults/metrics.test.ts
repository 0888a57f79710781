/**
 * `GET /internal-backstage/prometheus`, scraped and parsed with a Prometheus text parser
 * (`parse-prometheus-text-format`, prom2json's shape): the figures move with requests, writes, snapshots and
 * faults, routes are labelled by template (never the raw path), and the token setting is honoured.
 */
import parse from 'parse-prometheus-text-format';
import { describe, expect } from 'vitest';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../helpers/flags.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { openSse, servedTest } from '../http/client/stream-fixtures.js';
import { DiskFaults } from '../../snapshots/disk-faults.js';
import { ADMIN_TOKEN, harness, type Harness } from '../helpers/harness.js';
import { untilState } from '../helpers/wait.js';

const test = harnessTest();
const PATH = '/internal-backstage/prometheus';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A scrape, parsed: each family's declared type, and every sample with its labels. */
interface Scrape {
  types: Map<string, string>;
  samples: Sample[];
}

/**
 * Parses the exposition with `parse-prometheus-text-format`. That parser folds every series of a histogram
 * into one (it handles unlabelled histograms only), so histogram families are parsed with their `# TYPE`
 * line set aside: their `_bucket`, `_sum` and `_count` samples then come out one by one, labels intact.
 */
function parseScrape(text: string): Scrape {
  const types = new Map<string, string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(match[1]!, match[2]!);
  const families = parse(text.replace(/^# TYPE \S+ histogram$/gm, ''));
  const samples = families.flatMap((f) => f.metrics.map((m) => ({ name: f.name, labels: m.labels ?? {}, value: Number(m.value) })));
  return { types, samples };
}

async function scrape(h: Harness, token: string | null = null): Promise<Scrape> {
  const response = await h.req('GET', PATH, undefined, { token });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(await response.text());
}

/** The samples of `name` whose labels include `labels`. */
const series = (s: Scrape, name: string, labels: Record<string, string> = {}): Sample[] =>
  s.samples.filter((m) => m.name === name && Object.entries(labels).every(([k, v]) => m.labels[k] === v));

/**
 * The value of one series (the first whose labels include `labels`), 0 when absent; for a histogram, its
 * `_count` (the observations).
 */
function value(s: Scrape, name: string, labels: Record<string, string> = {}): number {
  if (!s.types.has(name)) throw new Error(`no metric ${name}`);
  const sample = series(s, s.types.get(name) === 'histogram' ? `${name}_count` : name, labels)[0];
  return sample?.value ?? 0;
}

describe('the Prometheus endpoint', () => {
  test('counts requests by route template, method and status, with a latency histogram', async ({ h }) => {
    await createFlag(h, 'one');
    await createFlag(h, 'two');
    await h.json('GET', flagPath('one'));
    await h.json('GET', flagPath('two'));
    await h.json('GET', flagPath('missing'));
    await h.json('GET', '/api/admin/no-such-route');
    await h.json('FOO' as string, '/api/admin/projects').catch(() => undefined);
    const families = await scrape(h);
    expect(families.types.get('flagpole_http_request_duration_seconds')).toBe('histogram');
    const flagRoute = '/api/admin/projects/:projectId/features/:featureName';
    expect(value(families, 'flagpole_http_request_duration_seconds', { route: flagRoute, method: 'GET', status: '200' })).toBe(2);
    expect(value(families, 'flagpole_http_request_duration_seconds', { route: flagRoute, method: 'GET', status: '404' })).toBe(1);
    expect(value(families, 'flagpole_http_request_duration_seconds', { route: '/api/admin/projects/:projectId/features', method: 'POST', status: '201' })).toBe(2);
    expect(value(families, 'flagpole_http_request_duration_seconds', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    // Never a raw path or a made-up method as a label value: the label sets stay bounded.
    const counts = series(families, 'flagpole_http_request_duration_seconds_count');
    expect(counts.length).toBeGreaterThanOrEqual(5);
    for (const sample of counts) {
      expect(sample.labels['route']).not.toMatch(/one|two|missing|no-such-route/);
      expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other']).toContain(sample.labels['method']);
      const [inf] = series(families, 'flagpole_http_request_duration_seconds_bucket', { ...sample.labels, le: '+Inf' });
      expect(inf!.value).toBe(sample.value);
      expect(series(families, 'flagpole_http_request_duration_seconds_sum', sample.labels)[0]!.value).toBeGreaterThan(0);
    }
    // The scrape itself is counted by the next scrape.
    expect(value(await scrape(h), 'flagpole_http_request_duration_seconds', { route: PATH, method: 'GET', status: '200' })).toBe(1);
  });

  test('commands committed by type, group commits, fsync latency and log records since the snapshot move with writes', async ({ h }) => {
    const before = await scrape(h);
    const batchesBefore = value(before, 'flagpole_group_commit_write_seconds');
    await Promise.all(['a', 'b', 'c'].map((name) => createFlag(h, name)));
    await h.json('PUT', flagPath('a'), { name: 'a', description: 'changed' });
    const after = await scrape(h);
    expect(value(after, 'flagpole_commands_committed_total', { type: 'flag.create' }) - value(before, 'flagpole_commands_committed_total', { type: 'flag.create' })).toBe(3);
    expect(value(after, 'flagpole_commands_committed_total', { type: 'flag.update' })).toBe(1);
    expect(value(after, 'flagpole_group_commit_write_seconds')).toBeGreaterThan(batchesBefore);
    expect(value(after, 'flagpole_group_commit_ops')).toBe(value(after, 'flagpole_group_commit_write_seconds'));
    expect(value(after, 'flagpole_log_records_since_snapshot', { scope: 'projects' }) - value(before, 'flagpole_log_records_since_snapshot', { scope: 'projects' })).toBe(4);
    expect(value(after, 'flagpole_log_records_since_snapshot_max')).toBeGreaterThanOrEqual(4);
    expect(value(after, 'flagpole_flags', { archived: 'false' })).toBe(3);
    await h.req('DELETE', flagPath('b'));
    const archived = await scrape(h);
    expect(value(archived, 'flagpole_flags', { archived: 'true' })).toBe(1);
    expect(value(archived, 'flagpole_flags', { archived: 'false' })).toBe(2);
    expect(value(archived, 'flagpole_projects', { state: 'served' })).toBe(1);
  });

  test('snapshots: duration and bytes; the records since the snapshot go back to 0', async ({ h }) => {
    await createFlag(h, 'snap');
    await h.registry.project('default')!.snapshot();
    const families = await scrape(h);
    expect(value(families, 'flagpole_snapshot_duration_seconds')).toBe(1);
    expect(value(families, 'flagpole_snapshot_last_bytes')).toBeGreaterThan(100);
    expect(value(families, 'flagpole_snapshot_bytes_total')).toBe(value(families, 'flagpole_snapshot_last_bytes'));
    expect(value(families, 'flagpole_log_records_since_snapshot', { scope: 'projects' })).toBe(0);
  });

  test('projects, segments, usage buckets flushed, and Node default metrics with event-loop lag', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/projects', { id: 'second', name: 'Second' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/segments', { name: 'seg', constraints: [] })).status).toBe(201);
    await createFlag(h, 'used');
    const metrics = { appName: 'm', instanceId: 'i', bucket: { start: new Date(Date.now() - 60_000).toISOString(), stop: new Date().toISOString(), toggles: { used: { yes: 3, no: 1, variants: {} } } } };
    expect((await h.req('POST', '/api/client/metrics', metrics)).status).toBe(202);
    await h.registry.usage.flush();
    const families = await scrape(h);
    expect(value(families, 'flagpole_projects', { state: 'served' })).toBe(2);
    expect(value(families, 'flagpole_segments')).toBe(1);
    const flushed = value(families, 'flagpole_usage_buckets_flushed_total');
    expect(flushed).toBeGreaterThan(0);
    expect(value(families, 'flagpole_usage_flushes_total', { outcome: 'written' })).toBe(1);
    // A flush with nothing new writes no bucket.
    await h.registry.usage.flush();
    expect(value(await scrape(h), 'flagpole_usage_buckets_flushed_total')).toBe(flushed);
    expect(families.types.get('flagpole_nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(value(families, 'flagpole_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(families, 'flagpole_process_resident_memory_bytes')).toBeGreaterThan(0);
    // No stream was opened.
    expect(value(families, 'flagpole_streaming_clients')).toBe(0);
    expect(value(families, 'flagpole_streaming_events_pushed_total')).toBe(0);
  });

  test('answers without a token by default (METRICS_REQUIRE_TOKEN=false)', async ({ h }) => {
    const response = await h.req('GET', PATH, undefined, { token: null });
    expect(response.status).toBe(200);
  });
});

describe('streaming clients', () => {
  const served = servedTest();

  served('connected clients and events pushed move as streams open, receive a toggle, and close', async ({ h, base }) => {
    await createFlag(h, 'streamed');
    await addStrategy(h, 'streamed', 'development');
    const token = await clientToken(h, ['default'], 'development');
    const figures = async () => {
      const s = await scrape(h);
      return { clients: value(s, 'flagpole_streaming_clients'), pushed: value(s, 'flagpole_streaming_events_pushed_total') };
    };
    // One observation per fan-out that sent something (a connect's first message is not a fan-out).
    const deliveries = async () => value(await scrape(h), 'flagpole_streaming_delivery_seconds');
    expect(await figures()).toEqual({ clients: 0, pushed: 0 });
    const first = await openSse(base, token);
    const second = await openSse(base, token);
    try {
      await first.next((m) => m.event === 'unleash-connected');
      await second.next((m) => m.event === 'unleash-connected');
      expect(await figures()).toEqual({ clients: 2, pushed: 2 });
      await switchOn(h, 'streamed');
      await first.next((m) => m.event === 'unleash-updated');
      await second.next((m) => m.event === 'unleash-updated');
      expect(await figures()).toEqual({ clients: 2, pushed: 4 });
      // Observed on the turn after the fan-out (once its writes are handed to the sockets).
      await expect.poll(deliveries, untilState()).toBe(1);
      // A change this token does not see pushes nothing: after it and one it sees, two more messages.
      expect((await h.json('POST', '/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
      expect((await h.req('POST', '/api/admin/projects/default/features/streamed/environments/development/off')).status).toBe(200);
      await first.next((m) => m.event === 'unleash-updated');
      await second.next((m) => m.event === 'unleash-updated');
      expect(await figures()).toEqual({ clients: 2, pushed: 6 });
      // The project's creation reached nobody: only the fan-out that carried /off counts.
      await expect.poll(deliveries, untilState()).toBe(2);
      first.close();
      expect(await first.ended).toBe('error');
      await expect.poll(async () => (await figures()).clients, untilState()).toBe(1);
      // The counter is a total: a closed stream's messages stay counted.
      expect((await figures()).pushed).toBe(6);
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('with METRICS_REQUIRE_TOKEN=true', () => {
  const guarded = harnessTest({ env: { METRICS_REQUIRE_TOKEN: 'true' } });

  guarded('needs an admin token: none is 401, a client token 403, the admin token 200', async ({ h }) => {
    expect((await h.json('GET', PATH, undefined, { token: null })).body.name).toBe('AuthenticationRequired');
    const client = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'development' });
    const forbidden = await h.json('GET', PATH, undefined, { token: client.body.secret });
    expect({ status: forbidden.status, name: forbidden.body.name }).toEqual({ status: 403, name: 'NoAccessError' });
    expect(value(await scrape(h, ADMIN_TOKEN), 'flagpole_projects', { state: 'served' })).toBe(1);
  });

  guarded('a bad METRICS_REQUIRE_TOKEN value stops the start naming the variable', async ({ openHarness }) => {
    await expect(openHarness({ METRICS_REQUIRE_TOKEN: 'yes' })).rejects.toThrow(/METRICS_REQUIRE_TOKEN must be "true" or "false"/);
  });
});

describe('faults in the metrics', () => {
  test('writes refused by the disk are counted by reason, and the write-health gauge says so until the disk heals', async ({ tempDir }) => {
    const faults = new DiskFaults();
    const h = await harness({}, tempDir('metrics-faults'), { writeGate: faults });
    try {
      const healthy = await scrape(h);
      expect(value(healthy, 'flagpole_writes_failing')).toBe(0);
      expect(value(healthy, 'flagpole_service_read_only')).toBe(0);
      expect(value(healthy, 'flagpole_write_in_progress_seconds')).toBe(0);
      faults.fail('EIO');
      expect((await h.req('POST', '/api/admin/projects/default/features', { name: 'x' })).status).toBe(503);
      const failing = await scrape(h);
      expect(value(failing, 'flagpole_writes_failing')).toBe(1);
      expect(value(failing, 'flagpole_storage_errors_total', { reason: 'failed' })).toBe(1);
      faults.heal();
      expect((await h.req('POST', '/api/admin/projects/default/features', { name: 'x' })).status).toBe(201);
      expect(value(await scrape(h), 'flagpole_writes_failing')).toBe(0);
    } finally {
      faults.heal();
      await h.close();
    }
  });
});
