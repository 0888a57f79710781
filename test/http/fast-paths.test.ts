/**
 * Every route with a fast path (a `node` answer in its record, src/http/fast-paths/) asked both ways over a
 * real socket: served as `npm start` serves it (`serveApp` with the app's fast paths) and served by Hono
 * alone. For good and bad input both must answer the same status, headers and bytes, log the same request
 * line and, for a stream, open with the same first message.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { describe, expect } from 'vitest';
import { ROUTES } from '../../src/app.js';
import { serveApp, type ServedApp } from '../../src/http/server.js';
import { createUser, personalToken } from './access/access-fixtures.js';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag, switchOn } from '../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../helpers/harness.js';
import { tokenOf } from './frontend/frontend-fixtures.js';
import { HEAVY_TEST_MS, untilState } from '../helpers/wait.js';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent (gzip not undone); of an event stream, up to the end of its first message. */
  body: Buffer;
}

/** A GET over a fresh connection, read with node:http so nothing is decompressed or normalized. */
function get(base: string, path: string, headers: Record<string, string>): Promise<Raw> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
      const stream = res.headers['content-type'] === 'text/event-stream';
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (stream && Buffer.concat(chunks).includes('\n\n')) {
          req.destroy();
          done();
        }
      });
      res.on('end', done);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers that differ by nature between two answers (the date) or that the case sets apart (the request id). */
const comparable = (headers: IncomingHttpHeaders) => {
  const { date: _date, 'x-request-id': _id, ...rest } = headers;
  return rest;
};

interface Servers {
  /** Served as `npm start` serves it: the fast paths, then Hono. */
  fast: string;
  /** The same app served by Hono alone. */
  hono: string;
  /** Requests the `fast` server handed to Hono so far. */
  honoCalls(): number;
}

async function listen(app: ServedApp | (() => ServedApp)): Promise<{ base: string; close(): Promise<void> }> {
  const server: ServerType = await new Promise((listening) => {
    const s = serveApp(app, { port: 0, hostname: '127.0.0.1' }, () => listening(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

/** Flags whose answers depend on nothing random (no gradual rollout), and enough of them that the poll is gzipped. */
async function world(h: Harness): Promise<void> {
  for (let i = 0; i < 80; i += 1) await createFlag(h, `big-${i}`, { description: 'd'.repeat(300) });
  await createFlag(h, 'one');
  await addStrategy(h, 'one', 'development');
  await switchOn(h, 'one');
}

// Debug: the 304s' request lines are compared too.
const test = harnessTest({ env: { LOG_LEVEL: 'debug' }, arrange: world }).extend<{ servers: Servers }>({
  servers: async ({ h }: { h: Harness }, use: (servers: Servers) => Promise<void>) => {
    let handed = 0;
    const fast = await listen(() => ({ fastPaths: h.app.fastPaths, fetch: (request, env) => { handed += 1; return h.app.fetch(request, env); } }));
    const hono = await listen({ fetch: (request, env) => h.app.fetch(request, env) });
    try {
      await use({ fast: fast.base, hono: hono.base, honoCalls: () => handed });
    } finally {
      await fast.close();
      await hono.close();
    }
  },
});

/** What each fast path's route is asked with: a token of its kind, one of the other kind, a query it takes and one it refuses. */
const INPUTS: Record<string, { kind: 'client' | 'frontend'; other: 'client' | 'frontend'; goodQuery: string; badQuery: string }> = {
  '/api/client/features': { kind: 'client', other: 'frontend', goodQuery: '?namePrefix=o', badQuery: `?namePrefix=${'n'.repeat(101)}` },
  '/api/client/streaming': { kind: 'client', other: 'frontend', goodQuery: '?x=1', badQuery: '?project=Not%20a%20project!' },
  '/api/frontend': { kind: 'frontend', other: 'client', goodQuery: '?userId=alice&sessionId=1&properties[plan]=pro', badQuery: '?userId=a&userId=b' },
};

describe('every route with a fast path answers the same both ways', () => {
  test('the fast paths are the three SDK reads, each with its inputs here', () => {
    expect(ROUTES.filter((route) => route.node).map((route) => `${route.method} ${route.path}`).sort())
      .toEqual(Object.keys(INPUTS).map((path) => `get ${path}`).sort());
  });

  test.for(ROUTES.filter((route) => route.node).map((route) => route.path))('GET %s', { timeout: HEAVY_TEST_MS }, async (path, { h, servers }) => {
    const inputs = INPUTS[path]!;
    const token = await tokenOf(h, { type: inputs.kind, projects: ['*'], environment: 'development' });
    const other = await tokenOf(h, { type: inputs.other, projects: ['*'], environment: 'development' });
    const personal = await personalToken(h, await createUser(h, { username: 'root', rootRole: 1 }));
    const fresh = await get(servers.hono, path, { authorization: token });
    expect(fresh.status).toBe(200);
    const etag = fresh.headers.etag ?? '"no-etag"';
    // The poll's gzip copy is made after a first request that accepts gzip: wait until it is ready.
    if (path === '/api/client/features') {
      await expect.poll(async () => (await get(servers.hono, path, { authorization: token, 'accept-encoding': 'gzip' })).headers['content-encoding'], untilState()).toBe('gzip');
    }

    const cases: [string, string, Record<string, string>][] = [
      ['its token', '', { authorization: token }],
      ['an admin token', '', { authorization: ADMIN_TOKEN }],
      ['no token', '', {}],
      ['an unknown token', '', { authorization: 'default:development.not-a-token-0123' }],
      ['a token of the other kind', '', { authorization: other }],
      ['a personal token', '', { authorization: personal }],
      ['If-None-Match naming the ETag', '', { authorization: token, 'if-none-match': etag }],
      ['If-None-Match naming it weakly in a list', '', { authorization: token, 'if-none-match': `"other", W/${etag.replace(/^W\//, '')}` }],
      ['If-None-Match naming another', '', { authorization: token, 'if-none-match': '"other"' }],
      ['If-None-Match *', '', { authorization: token, 'if-none-match': '*' }],
      ['gzip accepted', '', { authorization: token, 'accept-encoding': 'gzip, deflate' }],
      ['no gzip', '', { authorization: token, 'accept-encoding': 'identity' }],
      ['a bad Unleash-Client-Spec', '', { authorization: token, 'unleash-client-spec': 'v5' }],
      ['a good Unleash-Client-Spec', '', { authorization: token, 'unleash-client-spec': '4.1.0' }],
      ['a query it takes', inputs.goodQuery, { authorization: token }],
      ['a query it refuses', inputs.badQuery, { authorization: token }],
      ['a malformed X-Request-Id', '', { authorization: token, 'x-request-id': 'bad id!' }],
    ];
    let byFastPath = 0;
    for (const [i, [what, query, headers]] of cases.entries()) {
      const ids = headers['x-request-id'] === undefined ? { fast: `fast-${i}`, hono: `hono-${i}` } : undefined;
      const before = servers.honoCalls();
      const fast = await get(servers.fast, `${path}${query}`, { ...headers, ...(ids ? { 'x-request-id': ids.fast } : {}) });
      if (servers.honoCalls() === before) byFastPath += 1;
      else expect(servers.honoCalls() - before, what).toBe(1);
      const hono = await get(servers.hono, `${path}${query}`, { ...headers, ...(ids ? { 'x-request-id': ids.hono } : {}) });
      expect(fast.status, what).toBe(hono.status);
      expect(comparable(fast.headers), what).toEqual(comparable(hono.headers));
      // Byte for byte (latin1 keeps every byte), but for the request id an error body names.
      const bytes = (raw: Raw, id: string | undefined) => (id === undefined ? raw.body.toString('latin1') : raw.body.toString('latin1').replaceAll(id, '<id>'));
      expect(bytes(fast, ids?.fast), what).toBe(bytes(hono, ids?.hono));
      if (!ids) {
        expect(fast.headers['x-request-id'], what).toMatch(/^[0-9a-f-]{36}$/);
        continue;
      }
      expect(fast.headers['x-request-id'], what).toBe(ids.fast);
      const line = (id: string) => h.logs().find((l) => l.msg === 'request' && l.reqId === id);
      expect(line(ids.fast), what).toMatchObject({ method: 'GET', route: path, status: fast.status });
    }
    // Both ways were taken: the fast path answered the good requests, Hono the others.
    expect(byFastPath).toBeGreaterThanOrEqual(8);
    expect(byFastPath).toBeLessThan(cases.length);
    expect(JSON.stringify(h.logs())).not.toContain(token);
  });
});
