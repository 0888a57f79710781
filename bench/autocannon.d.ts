/**
 * The part of autocannon 9's programmatic API the benchmark uses. autocannon ships no types and
 * `@types/autocannon` is not a dependency, so this declares only what `bench/load.ts` touches.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  /** One request in a sequence; `setupRequest` may rewrite it before every send. */
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }

  /** Percentile summary of one histogram (latency in ms, requests per second, bytes per second). */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p99: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    /** Requests per second over all connections, at most. */
    overallRate?: number;
    warmup?: { connections?: number; duration?: number };
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** A running benchmark: emits `response` per answer and resolves to the result when done. */
  export interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void,
    ): this;
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
