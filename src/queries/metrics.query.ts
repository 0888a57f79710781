import client from 'prom-client';
import type { Registry } from '../actors/registry.js';
import { HandCounter, HandHistogram, type CounterSeries, type HistogramSeries } from './hand-metrics.js';

/**
 * Streaming (SSE) figures, read at scrape time: `createApp` hands the app's `ClientStreams` to
 * {@link ServiceMetrics.setStreamingSource}. Without a source (a metrics object alone), both read 0.
 */
export interface StreamingSource {
  /** Streaming clients connected now. */
  connectedClients(): number;
  /** Events pushed to streaming clients since the start (monotonic). */
  eventsPushed(): number;
  /** Calls `listener` with the seconds from a commit to the last stream write of the fan-out that carried it. */
  onDelivery(listener: (seconds: number) => void): void;
}

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
 * The service's Prometheus metrics (`GET /internal-backstage/prometheus`, docs/operations.md "Metrics").
 * One per app, no global registry, so tests build as many as they like. What changes per request or batch
 * is counted where it happens, with label children cached (one `observe`, no allocation, per request);
 * everything that is state (projects, flags, log since snapshot, write health) is read at scrape time.
 *
 * @example const metrics = new ServiceMetrics(registry); metrics.observeRequest('/health', 'GET', 200, 0.3); await metrics.text()
 */
export class ServiceMetrics {
  private readonly own = new client.Registry();
  private readonly requests = new HandHistogram('flagpole_http_request_duration_seconds', 'HTTP requests by route template, method and status, and how long they took to answer', LATENCY_BUCKETS);
  /** route → method → status → child: a request's labels are looked up, never built. */
  private readonly children = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  private readonly commands = new HandCounter('flagpole_commands_committed_total', 'Commands written to a log (on disk), by command type');
  private readonly commandChildren = new Map<string, CounterSeries>();
  private readonly storageErrors: client.Counter<'reason'>;
  private streaming: StreamingSource | null = null;
  private readonly delivery: client.Histogram;

  constructor(private readonly registry: Registry) {
    const register = [this.own];
    this.own.registerMetric(this.requests as unknown as client.Metric);
    this.own.registerMetric(this.commands as unknown as client.Metric);
    this.storageErrors = new client.Counter({
      name: 'flagpole_storage_errors_total', help: 'Writes answered 503 StorageUnavailable: failed (not written), timeout (no answer from the disk in time), stalled (refused while a write is stuck)',
      labelNames: ['reason'], registers: register,
    });
    // Observed once per synced batch: kept by hand, as the request histogram is.
    const batchOps = new HandHistogram('flagpole_group_commit_ops', 'Ops (log records and their companions) in one synced LevelDB batch: the group commit', BATCH_BUCKETS);
    const writeSeconds = new HandHistogram('flagpole_group_commit_write_seconds', 'Wall time of one synced LevelDB batch (the fsync)', WRITE_BUCKETS);
    for (const metric of [batchOps, writeSeconds]) this.own.registerMetric(metric as unknown as client.Metric);
    const batchOpsSeries = batchOps.child({});
    const writeSecondsSeries = writeSeconds.child({});
    const snapshotSeconds = new client.Histogram({ name: 'flagpole_snapshot_duration_seconds', help: 'Time to write one snapshot', buckets: SNAPSHOT_BUCKETS, registers: register });
    this.delivery = new client.Histogram({
      name: 'flagpole_streaming_delivery_seconds', help: 'From a commit until the fan-out that carried it has handed its writes to the sockets: the server\'s part of a change reaching streaming SDKs',
      buckets: DELIVERY_BUCKETS, registers: register,
    });
    const snapshotBytes = new client.Counter({ name: 'flagpole_snapshot_bytes_total', help: 'Bytes of the snapshots written', registers: register });
    const lastSnapshotBytes = new client.Gauge({ name: 'flagpole_snapshot_last_bytes', help: 'Bytes of the latest snapshot written', registers: register });
    registry.observers.written = (ms, ops) => {
      HandHistogram.observe(writeSecondsSeries, ms / 1000);
      HandHistogram.observe(batchOpsSeries, ops);
    };
    registry.observers.committed = (types) => {
      for (const type of types) HandCounter.inc(this.commandCounter(type));
    };
    registry.observers.snapshot = (ms, bytes) => {
      snapshotSeconds.observe(ms / 1000);
      snapshotBytes.inc(bytes);
      lastSnapshotBytes.set(bytes);
    };
    this.scrapeTimeGauges(register);
  }

  /**
   * Counts one answered request (`observed` in src/http/pipeline.ts, once the answer's head is ready). `route` is the route template (null for a
   * path no route matched); `seconds` its duration.
   */
  observeRequest(route: string | null, method: string, status: number, seconds: number): void {
    const byMethod = this.children.get(route ?? '') ?? this.addRoute(route ?? '');
    const m = METHODS.has(method) ? method : 'other';
    let byStatus = byMethod.get(m);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(m, byStatus);
    }
    let child = byStatus.get(status);
    if (!child) {
      child = this.requests.child({ route: route ?? 'unmatched', method: m, status: String(status) });
      byStatus.set(status, child);
    }
    HandHistogram.observe(child, seconds);
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

  private addRoute(route: string): Map<string, Map<number, HistogramSeries>> {
    const byMethod = new Map<string, Map<number, HistogramSeries>>();
    this.children.set(route, byMethod);
    return byMethod;
  }

  private commandCounter(type: string): CounterSeries {
    let counter = this.commandChildren.get(type);
    if (!counter) {
      counter = this.commands.child({ type });
      this.commandChildren.set(type, counter);
    }
    return counter;
  }

  /** Gauges whose value is the registry's state, computed when Prometheus asks, never on a write. */
  private scrapeTimeGauges(registers: client.Registry[]): void {
    const registry = this.registry;
    const streaming = () => this.streaming;
    new client.Gauge({
      name: 'flagpole_projects', help: 'Projects: served, or not served because their log could not be recovered', labelNames: ['state'], registers,
      collect() {
        this.set({ state: 'served' }, registry.projectIds().length);
        this.set({ state: 'unavailable' }, registry.unavailable.size);
      },
    });
    new client.Gauge({
      name: 'flagpole_flags', help: 'Flags of the served projects, archived or not', labelNames: ['archived'], registers,
      collect() {
        let total = 0;
        let archived = 0;
        for (const id of registry.projectIds()) {
          const flags = registry.project(id)?.state.flags;
          if (!flags) continue;
          total += flags.size;
          for (const flag of flags.values()) if (flag.archived) archived += 1;
        }
        this.set({ archived: 'false' }, total - archived);
        this.set({ archived: 'true' }, archived);
      },
    });
    new client.Gauge({
      name: 'flagpole_segments', help: 'Segments of the service', registers,
      collect() { this.set(Object.keys(registry.service.state.segments).length); },
    });
    new client.Gauge({
      name: 'flagpole_log_records_since_snapshot', help: 'Log records written since the last snapshot (what a restart replays): the service log, and all projects together',
      labelNames: ['scope'], registers,
      collect() {
        let projects = 0;
        for (const id of registry.projectIds()) projects += registry.project(id)?.recordsSinceSnapshot ?? 0;
        this.set({ scope: 'service' }, registry.service.recordsSinceSnapshot);
        this.set({ scope: 'projects' }, projects);
      },
    });
    new client.Gauge({
      name: 'flagpole_log_records_since_snapshot_max', help: 'The most log records since the last snapshot of any one project', registers,
      collect() {
        let most = 0;
        for (const id of registry.projectIds()) most = Math.max(most, registry.project(id)?.recordsSinceSnapshot ?? 0);
        this.set(most);
      },
    });
    new client.Gauge({
      name: 'flagpole_writes_failing', help: '1 while the last write to the disk failed or one is stuck past WRITE_TIMEOUT_MS (writes answer 503; reads work)', registers,
      collect() { this.set(registry.serving().writesFailing ? 1 : 0); },
    });
    new client.Gauge({
      name: 'flagpole_write_in_progress_seconds', help: 'How long the synced write in progress has been waiting for the disk (0: none)', registers,
      collect() { this.set(registry.writeHealth().writingForMs / 1000); },
    });
    new client.Gauge({
      name: 'flagpole_service_read_only', help: '1 when the service log (users, tokens, environments, segments) could not be recovered and is served read-only', registers,
      collect() { this.set(registry.serviceUnavailable ? 1 : 0); },
    });
    new client.Counter({
      name: 'flagpole_usage_buckets_flushed_total', help: 'SDK usage count buckets (hour, flag, environment) written to disk by the usage flushes', registers,
      collect() { setCounter(this, registry.usage.stats.bucketsFlushed); },
    });
    new client.Counter({
      name: 'flagpole_usage_flushes_total', help: 'Usage flushes, by outcome', labelNames: ['outcome'], registers,
      collect() {
        this.reset();
        this.inc({ outcome: 'written' }, registry.usage.stats.flushes);
        this.inc({ outcome: 'failed' }, registry.usage.stats.failedFlushes);
      },
    });
    new client.Gauge({
      name: 'flagpole_streaming_clients', help: 'Clients connected to GET /api/client/streaming', registers,
      collect() { this.set(streaming()?.connectedClients() ?? 0); },
    });
    new client.Counter({
      name: 'flagpole_streaming_events_pushed_total', help: 'Messages (unleash-connected, unleash-updated) pushed to streaming clients, keep-alives aside', registers,
      collect() { setCounter(this, streaming()?.eventsPushed() ?? 0); },
    });
  }
}

/** Sets an unlabelled counter to a monotonic total kept elsewhere (prom-client counters only go up by `inc`). */
function setCounter(counter: client.Counter, total: number): void {
  counter.reset();
  counter.inc(total);
}
