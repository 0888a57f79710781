/**
 * Headers over a real socket (`@hono/node-server`, as `npm start` serves): there the request id, `ETag` and
 * `Retry-After` are noted and written with the answer's head (`setResponseHeader`, `answerWith`,
 * `flushNotedHeaders`), not through Hono's `Headers` as under `app.request`. The same answers, checked where the other path runs: the id generated or echoed and
 * equal to an error body's `id`, hostile ids replaced, the flag version as `ETag` on writes, and the
 * headers of one answer never carried over to the next on the same keep-alive connection.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, test as plainTest } from 'vitest';
import { answerWith, flushNotedHeaders, setResponseHeader } from '../../src/http/answers/answer.js';
import { UUID } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { featuresPath, flagPath } from '../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../helpers/harness.js';

const test = harnessTest({
  arrange: async (h) => {
    expect((await h.json('POST', featuresPath(), { name: 'f' })).status).toBe(201);
  },
}).extend<{ base: string }>({
  base: async ({ h }: { h: Harness }, use: (base: string) => Promise<void>) => {
    const server: ServerType = await new Promise((listening) => {
      const s = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, () => listening(s));
    });
    const address = server.address();
    await use(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    await new Promise((closed) => server.close(closed));
  },
});

const send = (base: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {}) =>
  fetch(`${base}${path}`, {
    method,
    headers: { ...(options.token === null ? {} : { authorization: options.token ?? ADMIN_TOKEN }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });

describe('over a socket', () => {
  test('every answer carries a generated X-Request-Id, and an error body\'s id is it', async ({ base }) => {
    for (const [method, path, token] of [['GET', '/health', null], ['GET', featuresPath(), undefined], ['GET', flagPath('nope'), undefined], ['GET', featuresPath(), null], ['GET', '/api/admin/nothing', undefined]] as const) {
      const r = await send(base, method, path, { token });
      const id = r.headers.get('x-request-id');
      expect(id, `${method} ${path}`).toMatch(UUID);
      const body = (await r.json()) as { id?: string };
      if (r.status >= 400) expect(body.id).toBe(id);
    }
  });

  test('a well-formed X-Request-Id is echoed; a hostile one is replaced by a UUID', async ({ base }) => {
    const echoed = await send(base, 'GET', flagPath('nope'), { headers: { 'X-Request-Id': 'abc-123' } });
    expect([echoed.status, echoed.headers.get("x-request-id"), ((await echoed.json()) as { id: string }).id]).toEqual([404, 'abc-123', 'abc-123']);
    for (const hostile of ['abc 123', 'a'.repeat(256), '"><script>']) {
      const r = await send(base, 'GET', featuresPath(), { headers: { 'X-Request-Id': hostile } });
      expect(r.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  test('writes answer the flag version as ETag, /on and /off included; a refused write has none', async ({ base }) => {
    const patched = await send(base, 'PUT', flagPath('f'), { body: { name: 'f', description: 'd' } });
    expect(patched.status).toBe(200);
    const version = patched.headers.get('etag');
    expect(version).toMatch(/^"\d+"$/);
    const off = await send(base, 'POST', `${flagPath('f')}/environments/development/off`);
    expect([off.status, off.headers.get('etag')]).toEqual([200, version]);
    const stale = await send(base, 'PUT', flagPath('f'), { body: { name: 'f' }, headers: { 'if-match': '"999999"' } });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBeNull();
    const read = await send(base, 'GET', flagPath('f'));
    expect(read.headers.get('etag')).toBe(version);
  });

  test('one keep-alive connection: each answer has its own id, no header of an earlier answer', async ({ base }) => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 5; i++) {
      const write = await send(base, 'PUT', flagPath('f'), { body: { name: 'f', description: `d${i}` } });
      expect(write.headers.get('etag')).not.toBeNull();
      ids.add(write.headers.get('x-request-id'));
      const failed = await send(base, 'GET', flagPath('nope'));
      expect(failed.headers.get('etag')).toBeNull();
      ids.add(failed.headers.get('x-request-id'));
    }
    expect(ids.size).toBe(10);
  });

  test('client features and the frontend API: ETag, 304 on a match, CORS headers, over a socket', async ({ base }) => {
    const first = await send(base, 'GET', '/api/client/features?environment=development');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(((await first.json()) as { features: { name: string }[] }).features.map((f) => f.name)).toContain('f');
    const again = await send(base, 'GET', '/api/client/features?environment=development', { headers: { 'if-none-match': etag! } });
    expect([again.status, again.headers.get('etag'), again.headers.get('x-request-id')?.length]).toEqual([304, etag, 36]);
    const changed = await send(base, 'PUT', flagPath('f'), { body: { name: 'f', description: 'changed' } });
    expect(changed.status).toBe(200);
    const after = await send(base, 'GET', '/api/client/features?environment=development', { headers: { 'if-none-match': etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);

    const frontend = await send(base, 'GET', '/api/frontend?userId=u1', { headers: { origin: 'https://app.example' } });
    expect(frontend.status).toBe(200);
    expect(frontend.headers.get('access-control-allow-origin')).toBe('*');
    expect(frontend.headers.get('cache-control')).toBe('no-cache');
    const frontendEtag = frontend.headers.get('etag');
    expect(frontendEtag).toMatch(/^W\/".+"$/);
    const unchanged = await send(base, 'GET', '/api/frontend?userId=u1', { headers: { origin: 'https://app.example', 'if-none-match': frontendEtag! } });
    expect([unchanged.status, unchanged.headers.get('access-control-allow-origin')]).toEqual([304, '*']);
  });
});

describe('headers noted before the answer exists, over a socket', () => {
  /**
   * A bare app whose routes note headers, then answer through `answerWith` or through Hono; once answered,
   * what is left goes onto Node's response, as `observed` does (src/http/pipeline/observed.ts).
   */
  async function serveNoting(use: (base: string) => Promise<void>) {
    const app = new Hono();
    app.use(async (c, next) => {
      await next();
      flushNotedHeaders(c);
    });
    app.get('/with', (c) => {
      setResponseHeader(c, 'X-Noted', 'n');
      setResponseHeader(c, 'ETag', '"noted"');
      return answerWith(c, '{}', 200, { 'content-type': 'application/json', etag: '"own"' });
    });
    app.get('/hono', (c) => {
      setResponseHeader(c, 'X-Noted', 'n');
      return c.json({ ok: true }, 201);
    });
    app.get('/none', (c) => answerWith(c, null, 204));
    const server: ServerType = await new Promise((listening) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => listening(s));
    });
    const address = server.address();
    try {
      await use(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  }

  plainTest('answerWith writes them with its own headers, which win a name they share, each once', async () => {
    await serveNoting(async (base) => {
      const r = await fetch(`${base}/with`);
      expect([r.status, r.headers.get('x-noted'), r.headers.get('etag'), r.headers.get('content-type'), await r.text()]).toEqual([200, 'n', '"own"', 'application/json', '{}']);
    });
  });

  plainTest('an answer Hono builds gets them too; an answer with none noted has none', async () => {
    await serveNoting(async (base) => {
      const hono = await fetch(`${base}/hono`);
      expect([hono.status, hono.headers.get('x-noted'), await hono.json()]).toEqual([201, 'n', { ok: true }]);
      const none = await fetch(`${base}/none`);
      expect([none.status, none.headers.get('x-noted')]).toEqual([204, null]);
    });
  });
});
