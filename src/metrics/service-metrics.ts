import client from 'prom-client';
import type { Registry } from '../actors/registry.js';
import { addonMetrics } from './addon-metrics.js';
import { stateGauges, type StreamingSource } from './state-gauges.js';

export type { StreamingSource };

/** HTTP methods kept as label values; any other method is counted as `other` (a client may send any token). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds: from a cached read (tens of µs) to a request that waited on a stuck disk. */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds of one synced LevelDB batch (the fsync), and of one snapshot. */
const WRITE_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SNAPSHOT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Ops in one synced batch (group commit): 1 alone, up to thousands under load. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096];
/** Seconds from a commit to the last stream write that carried it: sub-millisecond for a few streams, ~5 ms at 5,000. */
const DELIVERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Node's default metrics (event-loop lag, heap, GC, handles, CPU): one set per process, started once. */
let processRegistry: client.Registry | undefined;

/**
 * Starts Node's default metrics for this process (idempotent). `main` calls it at start so event-loop lag
 * is measured from then on; otherwise the first scrape starts it.
 */
export function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry, prefix: 'flagpole_' });
  }
  return processRegistry;
}

/**
 * The service's Prometheus metrics (`GET /internal-backstage/prometheus`, docs/operations.md "Metrics"), kept
 * with prom-client. One registry per app, no global one, so tests build as many as they like. What changes per
 * request or batch is counted where it happens (the registry's and the store's observer hooks, `observed` in
 * the HTTP pipeline); everything that is state is read at scrape time (`state-gauges.ts`).
 *
 * @example const metrics = new ServiceMetrics(registry); metrics.observeRequest('/health', 'GET', 200, 0.3); await metrics.text()
 */
export class ServiceMetrics {
  private readonly own = new client.Registry();
  private readonly requests: client.Histogram<'route' | 'method' | 'status'>;
  private readonly storageErrors: client.Counter<'reason'>;
  private readonly delivery: client.Histogram;
  private streaming: StreamingSource | null = null;

  constructor(registry: Registry) {
    const registers = [this.own];
    this.requests = new client.Histogram({
      name: 'flagpole_http_request_duration_seconds', help: 'HTTP requests by route template, method and status, and how long they took to answer',
      labelNames: ['route', 'method', 'status'], buckets: LATENCY_BUCKETS, registers,
    });
    this.storageErrors = new client.Counter({
      name: 'flagpole_storage_errors_total', help: 'Writes answered 503 StorageUnavailable: failed (not written), timeout (no answer from the store in time), stalled (refused while a write is stuck)',
      labelNames: ['reason'], registers,
    });
    this.delivery = new client.Histogram({
      name: 'flagpole_streaming_delivery_seconds', help: 'From a commit until the fan-out that carried it has handed its writes to the sockets: the server\'s part of a change reaching streaming SDKs',
      buckets: DELIVERY_BUCKETS, registers,
    });
    const commands = new client.Counter({ name: 'flagpole_commands_committed_total', help: 'Commands written to a log (in the store), by command type', labelNames: ['type'], registers });
    const batchOps = new client.Histogram({ name: 'flagpole_group_commit_ops', help: 'Ops (log records and their companions) in one synced write of the store (a LevelDB batch, a PostgreSQL statement): the group commit', buckets: BATCH_BUCKETS, registers });
    const writeSeconds = new client.Histogram({ name: 'flagpole_group_commit_write_seconds', help: 'Wall time of one synced write of the store (the fsync, or the PostgreSQL commit)', buckets: WRITE_BUCKETS, registers });
    const snapshotSeconds = new client.Histogram({ name: 'flagpole_snapshot_duration_seconds', help: 'Time to write one snapshot', buckets: SNAPSHOT_BUCKETS, registers });
    const snapshotBytes = new client.Counter({ name: 'flagpole_snapshot_bytes_total', help: 'Bytes of the snapshots written', registers });
    const lastSnapshotBytes = new client.Gauge({ name: 'flagpole_snapshot_last_bytes', help: 'Bytes of the latest snapshot written', registers });
    registry.observers.written = (ms, ops) => {
      writeSeconds.observe(ms / 1000);
      batchOps.observe(ops);
    };
    registry.observers.committed = (types) => {
      for (const type of types) commands.inc({ type });
    };
    registry.observers.snapshot = (ms, bytes) => {
      snapshotSeconds.observe(ms / 1000);
      snapshotBytes.inc(bytes);
      lastSnapshotBytes.set(bytes);
    };
    stateGauges(registry, () => this.streaming, registers);
    addonMetrics(registry, registers);
  }

  /**
   * Counts one answered request (`observed` in src/http/pipeline/observed.ts, and the fast paths' dispatch), once
   * its answer exists. `route` is the route template (null for a path no route matched); `seconds` its duration.
   */
  observeRequest(route: string | null, method: string, status: number, seconds: number): void {
    this.requests.observe({ route: route ?? 'unmatched', method: METHODS.has(method) ? method : 'other', status }, seconds);
  }

  /** Counts a write answered 503 because of the disk. */
  storageError(reason: 'failed' | 'timeout' | 'stalled'): void {
    this.storageErrors.inc({ reason });
  }

  /** The hook of the streaming endpoints: connected clients and events pushed are read from `source` at each scrape. */
  setStreamingSource(source: StreamingSource): void {
    this.streaming = source;
    source.onDelivery((seconds) => this.delivery.observe(seconds));
  }

  /** The exposition text (Prometheus text format 0.0.4): this service's metrics and the process's. */
  async text(): Promise<string> {
    return client.Registry.merge([processMetrics(), this.own]).metrics();
  }

  /** The content type of {@link text}. */
  readonly contentType = client.Registry.PROMETHEUS_CONTENT_TYPE;
}
