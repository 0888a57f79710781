import client from 'prom-client';
import type { Registry } from '../actors/registry.js';

/**
 * Streaming (SSE) figures, read at scrape time: `createApp` hands the app's `ClientStreams` to
 * `ServiceMetrics.setStreamingSource`. Without a source (a metrics object alone), both read 0.
 */
export interface StreamingSource {
  /** Streaming clients connected now. */
  connectedClients(): number;
  /** Events pushed to streaming clients since the start (monotonic). */
  eventsPushed(): number;
  /** Calls `listener` with the seconds from a commit to the last stream write of the fan-out that carried it. */
  onDelivery(listener: (seconds: number) => void): void;
}

/**
 * Registers in `registers` the gauges whose value is the registry's state (projects, flags, segments, log
 * since snapshot, write health, usage flushes, streaming clients): computed when Prometheus asks, never on a write.
 */
export function stateGauges(registry: Registry, streaming: () => StreamingSource | null, registers: client.Registry[]): void {
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
    name: 'flagpole_writes_failing', help: '1 while the last write to the store failed or one is stuck past WRITE_TIMEOUT_MS (writes answer 503; reads work)', registers,
    collect() { this.set(registry.serving().writesFailing ? 1 : 0); },
  });
  new client.Gauge({
    name: 'flagpole_write_in_progress_seconds', help: 'How long the synced write in progress has been waiting for the store (0: none)', registers,
    collect() { this.set(registry.writeHealth().writingForMs / 1000); },
  });
  new client.Gauge({
    name: 'flagpole_service_read_only', help: '1 when the service log (users, tokens, environments, segments) could not be recovered and is served read-only', registers,
    collect() { this.set(registry.serviceUnavailable ? 1 : 0); },
  });
  new client.Counter({
    name: 'flagpole_usage_buckets_flushed_total', help: 'SDK usage count buckets (hour, flag, environment) written to the store by the usage flushes', registers,
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

/** Sets an unlabelled counter to a monotonic total kept elsewhere (prom-client counters only go up by `inc`). */
function setCounter(counter: client.Counter, total: number): void {
  counter.reset();
  counter.inc(total);
}
