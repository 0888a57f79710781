/**
 * Fixtures of the delta and streaming tests: the harness served on a real socket (requests go to the
 * harness's current app, so a server restart with `h.restart()` keeps the socket), the requests it saw, and
 * a reader of server-sent events over fetch.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { serveApp } from '../../../src/http/server.js';
import { closeGracefully } from '../../helpers/close-server.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { freePort } from '../../helpers/net.js';
import { STATE_TIMEOUT_MS } from '../../helpers/wait.js';

/** A request the served harness received: path and the headers the streaming and delta tests look at. */
export interface SeenRequest {
  path: string;
  status: number;
  lastEventId: string | null;
  ifNoneMatch: string | null;
  /** The delta API's 200 bodies, parsed (for the other paths: undefined). */
  delta?: { events: { type: string }[] };
}

export interface ServedFixtures {
  /** `http://127.0.0.1:<port>` of the served harness. */
  base: string;
  /** The API base as SDKs take it: `<base>/api/`. */
  url: string;
  /** Every request the served harness answered so far, in order. */
  seen: SeenRequest[];
}

/** A harness test (`env` as `harnessTest`) whose `h` is also served on a socket; the server is closed after the test. */
export function servedTest(env: Record<string, string> = {}) {
  return harnessTest({ env }).extend<ServedFixtures>({
    seen: async ({}, use) => use([]),
    base: async ({ h, seen }, use) => {
      const port = await freePort();
      // Served as `npm start` serves it (`serveApp`: the fast paths first, then Hono). Every answer is noted
      // when its head is written, whoever wrote it; the delta bodies are read from Hono's answers on the way.
      const deltas = new WeakMap<IncomingMessage, SeenRequest['delta']>();
      const server = serveApp(() => h.app, {
        port, hostname: '127.0.0.1',
        fetch: async (request, env) => {
          const response = await h.app.fetch(request, env);
          const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
          if (incoming && new URL(request.url).pathname === '/api/client/delta' && response.status === 200) {
            deltas.set(incoming, JSON.parse(await response.clone().text()) as SeenRequest['delta']);
          }
          return response;
        },
      }) as Server;
      const close = closeGracefully(server);
      server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
        const writeHead = res.writeHead;
        res.writeHead = ((status: number, ...rest: unknown[]) => {
          const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] as string : null);
          const delta = deltas.get(req);
          seen.push({ path: new URL(req.url ?? '/', 'http://x').pathname, status, lastEventId: header('last-event-id'), ifNoneMatch: header('if-none-match'), ...(delta ? { delta } : {}) });
          return (writeHead as (...args: unknown[]) => ServerResponse).call(res, status, ...rest);
        }) as typeof res.writeHead;
      });
      try {
        await use(`http://127.0.0.1:${port}`);
      } finally {
        await close();
      }
    },
    url: async ({ base }, use) => use(`${base}/api/`),
  });
}

/** One server-sent event (or a comment, `comment` set). */
export interface SseMessage {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
}

export interface SseReader {
  status: number;
  headers: Headers;
  /** Every message read so far. */
  messages: SseMessage[];
  /**
   * The next message that passes `match`, in order: messages are taken as a queue, each returned at most once
   * (those skipped over are taken too); fails after `ms` ({@link STATE_TIMEOUT_MS} unless given).
   */
  next(match: (m: SseMessage) => boolean, ms?: number): Promise<SseMessage>;
  /** Resolves with `end` when the server ends the stream cleanly, `error` when the connection breaks. */
  ended: Promise<'end' | 'error'>;
  close(): void;
}

/** Opens `GET /api/client/streaming` (or `path`, e.g. the OFREP event stream) with fetch and parses its events as they arrive. */
export async function openSse(base: string, token: string | null, headers: Record<string, string> = {}, path = '/api/client/streaming'): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(`${base}${path}`, {
    headers: { accept: 'text/event-stream', ...(token === null ? {} : { authorization: token }), ...headers }, signal: abort.signal,
  });
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let taken = 0;
  const parse = (block: string) => {
    const m: SseMessage = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) m.comment = line.slice(1).trim();
      else {
        const at = line.indexOf(':');
        const field = line.slice(0, at);
        const value = line.slice(at + 1).replace(/^ /, '');
        if (field === 'event' || field === 'id' || field === 'data') m[field] = value;
      }
    }
    messages.push(m);
  };
  const ended = (async (): Promise<'end' | 'error'> => {
    if (!response.body) return 'end';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          parse(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
        for (const wake of waiters) wake();
      }
      return 'end';
    } catch {
      return 'error';
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  return {
    status: response.status, headers: response.headers, messages, ended,
    next: (match, ms = STATE_TIMEOUT_MS) => new Promise((resolve, reject) => {
      const check = () => {
        while (taken < messages.length) {
          const m = messages[taken]!;
          taken += 1;
          if (match(m)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(m);
            return;
          }
        }
      };
      const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`no matching event within ${ms} ms; read: ${JSON.stringify(messages).slice(0, 2000)}`)); }, ms);
      waiters.add(check);
      check();
    }),
    close: () => abort.abort(),
  };
}

/** The `data` of an SSE message as a delta: its events' types and names. */
export function eventsOf(m: SseMessage): string[] {
  const body = JSON.parse(m.data ?? '{}') as { events: { type: string; features?: { name: string }[]; feature?: { name: string }; featureName?: string; segment?: { id: number }; segmentId?: number }[] };
  return body.events.map((e) => {
    if (e.type === 'hydration') return `hydration ${e.features!.map((f) => f.name).sort().join(',')}`;
    if (e.type === 'feature-updated') return `updated ${e.feature!.name}`;
    if (e.type === 'feature-removed') return `removed ${e.featureName}`;
    if (e.type === 'segment-updated') return `segment-updated #${e.segment!.id}`;
    return `segment-removed #${e.segmentId}`;
  });
}
