import http from 'node:http';
import type { Target } from './client.js';

/** One server-sent event as it arrived: its name, data, and when its last byte was read (`performance.now()`). */
export interface SseEvent {
  event: string;
  data: string;
  at: number;
}

/** An open SSE stream, its events kept in order, and a way to wait for one. */
export interface SseWatch {
  /** Resolves with the first event from index `from` on that `match` accepts, or null after `timeoutMs`. */
  next(match: (event: SseEvent) => boolean, timeoutMs: number, from?: number): Promise<SseEvent | null>;
  /** How many events have arrived so far. */
  readonly count: number;
  close(): void;
}

/**
 * Opens `path` on `target` as an SSE stream (the target's token in `Authorization`, and `headers`) and resolves once its head
 * is read with a 200. Events are timed as their blank line is read, on this process's own connection.
 *
 * @example const stream = await watchSse(target, '/api/client/streaming?project=p'); await stream.next((e) => e.event === 'unleash-connected', 5000);
 */
export function watchSse(target: Target, path: string, headers: Record<string, string> = {}): Promise<SseWatch> {
  const events: SseEvent[] = [];
  let waiters: (() => void)[] = [];
  const told = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  return new Promise((resolve, reject) => {
    const request = http.get(`${target.origin}${target.prefix}${path}`, {
      agent: false,
      headers: { ...(target.token === undefined ? {} : { authorization: target.token }), accept: 'text/event-stream', ...headers },
    }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`${target.label}: GET ${path} answered ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const event = lines.find((line) => line.startsWith('event:'))?.slice(6).trim();
          const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
          if (event !== undefined) events.push({ event, data, at: performance.now() });
        }
        told();
      });
      response.on('error', () => undefined);
      resolve({
        get count() {
          return events.length;
        },
        async next(match, timeoutMs, from = 0) {
          const deadline = performance.now() + timeoutMs;
          for (let i = from; ; ) {
            for (; i < events.length; i += 1) if (match(events[i]!)) return events[i]!;
            const left = deadline - performance.now();
            if (left <= 0) return null;
            await new Promise<void>((wake) => {
              const timer = setTimeout(wake, left);
              waiters.push(() => { clearTimeout(timer); wake(); });
            });
          }
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}
