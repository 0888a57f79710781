import autocannon, { type AutocannonRequest } from 'autocannon';
import type { Target } from './client.js';
import { cpuSeconds } from './server.js';

export type { AutocannonRequest };

/** How hard and how long to drive one scenario. */
export interface LoadOptions {
  duration: number;
  connections: number;
  /** Seconds of the same load run before measuring, so the server's JIT and caches are warm. 0 skips. */
  warmup: number;
  /** The status a successful answer has, when it is not any 2xx (a conditional GET expects 304). */
  okStatus?: number | undefined;
  /** The server's process: its CPU time over the measured part (warmup left out) is divided by the answers. */
  serverPid?: number | undefined;
}

/** What one scenario run measured. Latencies are of successful (2xx, or `okStatus`) answers only, in milliseconds. */
export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not successful, plus connection errors and timeouts (none of those is a success). */
  failures: number;
  statusCounts: Record<string, number>;
  /** Mean size of an answer in bytes (useful for the big list and overview answers). */
  bytesPerAnswer: number;
  /**
   * The server's CPU time (all its threads, user + system) per answer while measuring, µs; undefined without
   * `serverPid` or off Linux. Steadier than req/s on a shared machine: the load generator's own share and
   * what else the machine runs do not enter it.
   */
  serverCpuUs: number | undefined;
}

/**
 * Drives the given request sequence against a target with autocannon and summarizes it.
 * autocannon keeps latencies in a whole-millisecond histogram; the summary here records every 2xx
 * latency from the `response` event instead, so p50 and p99 keep sub-millisecond precision.
 *
 * @example
 * const result = await runLoad(target, [{ method: 'GET', path: '/health' }], { duration: 10, connections: 32, warmup: 1 });
 */
export async function runLoad(target: Target, requests: AutocannonRequest[], options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let bytes = 0;
  const ok = (status: number) => (options.okStatus === undefined ? status >= 200 && status < 300 : status === options.okStatus);
  const instance = autocannon({
    url: target.origin,
    connections: options.connections,
    duration: options.duration,
    timeout: 30,
    requests,
    ...(options.warmup > 0 ? { warmup: { connections: options.connections, duration: options.warmup } } : {}),
  });
  // autocannon's tracker starts its measured run after the warmup one.
  let cpuAtStart: Promise<number | undefined> | undefined;
  if (options.serverPid !== undefined) {
    const pid = options.serverPid;
    instance.once('start', () => { cpuAtStart = cpuSeconds(pid); });
  }
  instance.on('response', (_client, statusCode, resBytes, responseTimeMs) => {
    bytes += resBytes;
    if (ok(statusCode)) latencies.push(responseTimeMs);
  });
  const result = await instance;
  const cpuAtEnd = options.serverPid === undefined ? undefined : await cpuSeconds(options.serverPid);
  const cpuStart = await cpuAtStart;
  const sorted = Float64Array.from(latencies).sort();
  const statusCounts: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statusCounts[status] = Number(count);
  const answers = Object.values(statusCounts).reduce((sum, n) => sum + n, 0);
  return {
    // autocannon's per-second histogram keeps 3 significant digits; counting answers is exact.
    rps: result.duration > 0 ? answers / result.duration : 0,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    requests: answers,
    failures: Object.entries(statusCounts).reduce((sum, [status, n]) => (ok(Number(status)) ? sum : sum + n), 0) + result.errors,
    statusCounts,
    bytesPerAnswer: answers === 0 ? 0 : bytes / answers,
    serverCpuUs: cpuStart === undefined || cpuAtEnd === undefined || answers === 0 ? undefined : ((cpuAtEnd - cpuStart) * 1e6) / answers,
  };
}

/** Nearest-rank percentile of an ascending sample; NaN for an empty one. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The median of `values` (the lower middle one of an even count), as `percentile` reads it. */
export const median = (values: number[]): number => percentile(Float64Array.from(values).sort(), 0.5);
