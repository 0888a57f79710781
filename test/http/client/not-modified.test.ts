/**
 * The SDK poll (`GET /api/client/features`, no query) is answered by Node before Hono
 * (`src/http/fast-paths/client-poll.fast-path.ts`): 304 with the current `ETag`, else the full answer. Over a real socket
 * served as `npm start` serves it (`serveApp`). It must answer exactly what the route answers, and leave
 * everything else to the route.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { legacyHash } from '../../../src/auth/token-hasher.js';
import { addStrategy, createFlag, envPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { requestCount, servedAppTest, type Served } from '../../helpers/served-app.js';
import { createUser, personalToken } from '../access/access-fixtures.js';
import { clientToken, FEATURES } from './client-fixtures.js';
import { untilState } from '../../helpers/wait.js';

const poll = (served: Served, token: string | null, headers: Record<string, string> = {}, query = '') =>
  fetch(`${served.base}${FEATURES}${query}`, { headers: { ...(token === null ? {} : { authorization: token }), ...headers } });

/** The current ETag of a token's answer, read through the route (a poll without `If-None-Match`). */
async function etagOf(served: Served, token: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await poll(served, token, headers);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response.headers.get('etag')!;
}

/** The harness's app served by `serveApp` with `app.fetch` counted, and one flag on in development. */
const servedTest = (env: Record<string, string> = {}) => servedAppTest(env, async (h: Harness) => {
  await createFlag(h, 'one');
  await addStrategy(h, 'one', 'development');
  await switchOn(h, 'one');
});

describe('a poll with the current ETag', () => {
  // A 304's request line is at debug.
  const test = servedTest({ LOG_LEVEL: 'debug' });

  test('is a 304 without a body, with the ETag, a request id, a log line and a metric: the route\'s answer, without Hono', async ({ h, served }) => {
    const token = await clientToken(h, ['default'], 'development');
    const etag = await etagOf(served, token);
    const counted = await requestCount(served, FEATURES, 304);
    const before = served.honoCalls();

    const answer = await poll(served, token, { 'if-none-match': etag, 'x-request-id': 'sdk-poll-1' });
    expect(answer.status).toBe(304);
    expect(await answer.text()).toBe('');
    expect(answer.headers.get('etag')).toBe(etag);
    expect(answer.headers.get('x-request-id')).toBe('sdk-poll-1');
    expect(answer.headers.get('fetch-mode')).toBeNull();
    // A weak form and a list naming it are the same match; a malformed request id gets a new one.
    const weak = await poll(served, token, { 'if-none-match': `"other", W/${etag}`, 'x-request-id': 'bad id!' });
    expect(weak.status).toBe(304);
    expect(weak.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(served.honoCalls() - before).toBe(0);

    // The same poll through Hono (the route itself) answers the same.
    const routed = await h.req('GET', FEATURES, undefined, { token, headers: { 'if-none-match': etag } });
    expect(routed.status).toBe(304);
    expect(routed.headers.get('etag')).toBe(etag);

    expect(await requestCount(served, FEATURES, 304)).toBe(counted + 3); // two answered by Node, one by the route
    const lines = h.logs().filter((l) => l.msg === 'request' && l.route === FEATURES && l.status === 304);
    expect(lines.map((l) => l.reqId)).toContain('sdk-poll-1');
    expect(lines.find((l) => l.reqId === 'sdk-poll-1')).toMatchObject({ level: 20, method: 'GET', route: FEATURES, status: 304, ms: expect.any(Number) });
    expect(JSON.stringify(h.logs())).not.toContain(token);
  });

  test('with an admin token, and with and without a client spec (each its own ETag)', async ({ h, served }) => {
    const admin = h.config.initAdminApiTokens[0] ?? '*:*.test-admin-token-0123456789';
    const specs: Record<string, string>[] = [{}, { 'unleash-client-spec': '4.1.0' }, { 'unleash-client-spec': '5.2.0' }];
    for (const headers of specs) {
      const etag = await etagOf(served, admin, headers);
      const answer = await poll(served, admin, { ...headers, 'if-none-match': etag });
      expect(answer.status).toBe(304);
      expect(answer.headers.get('etag')).toBe(etag);
    }
  });

  test('after a change is a 200 with the new flags and a new ETag', async ({ h, served }) => {
    const token = await clientToken(h, ['default'], 'development');
    const etag = await etagOf(served, token);
    expect((await h.req('POST', `${envPath('one', 'development')}/off`)).status).toBe(200);
    const answer = await poll(served, token, { 'if-none-match': etag });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).not.toBe(etag);
    const body = await answer.json() as { features: { name: string; enabled: boolean }[] };
    expect(body.features).toEqual([expect.objectContaining({ name: 'one', enabled: false })]);
  });
});

describe('a poll without the current ETag', () => {
  const test = servedTest();

  test('is the full answer, by Node: the route\'s bytes and headers, a request id, a log line and a metric', async ({ h, served }) => {
    const token = await clientToken(h, ['default'], 'development');
    const counted = await requestCount(served, FEATURES, 200);
    const before = served.honoCalls();
    const answers = [
      await poll(served, token, { 'x-request-id': 'sdk-full-1', 'unleash-client-spec': '5.1.0' }),
      await poll(served, token, { 'if-none-match': '"stale:1"', 'unleash-client-spec': '5.1.0' }),
    ];
    expect(served.honoCalls() - before).toBe(0);
    // The same poll through Hono (the route itself).
    const routed = await h.req('GET', FEATURES, undefined, { token, headers: { 'unleash-client-spec': '5.1.0' } });
    const routedBody = await routed.text();
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(routedBody);
      for (const name of ['etag', 'content-type', 'vary', 'content-encoding', 'fetch-mode']) expect(answer.headers.get(name), name).toBe(routed.headers.get(name));
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(routedBody)));
    }
    expect(JSON.parse(routedBody)).toMatchObject({ version: 2, features: [expect.objectContaining({ name: 'one', enabled: true })], segments: [] });
    expect(answers[0]!.headers.get('x-request-id')).toBe('sdk-full-1');
    expect(answers[1]!.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await requestCount(served, FEATURES, 200)).toBe(counted + 3); // two answered by Node, one by the route
    expect(h.logs().find((l) => l.msg === 'request' && l.reqId === 'sdk-full-1')).toMatchObject({ method: 'GET', route: FEATURES, status: 200, ms: expect.any(Number) });
    expect(JSON.stringify(h.logs())).not.toContain(token);
  });

  test('a large answer: gzipped once the copy is ready when the SDK accepts gzip, as the route gzips it', async ({ h, served }) => {
    // About 80 flags make the answer larger than the 32 KB below which nothing is compressed.
    for (let i = 0; i < 80; i += 1) {
      await createFlag(h, `big-${i}`, { description: 'd'.repeat(300) });
    }
    const token = await clientToken(h, ['default'], 'development');
    const plain = await poll(served, token);
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(32 * 1024);
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('content-encoding')).toBeNull();
    // Node's fetch would decompress on its own: read the raw bytes with node:http instead.
    const raw = async () => {
      const { request } = await import('node:http');
      return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const url = new URL(`${served.base}${FEATURES}`);
        request({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: token, 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject).end();
      });
    };
    // The compressed copy is made in zlib's thread pool: asked until it is ready.
    await expect.poll(async () => (await raw()).headers['content-encoding'], untilState()).toBe('gzip');
    const before = served.honoCalls();
    const zipped = await raw();
    expect(served.honoCalls() - before).toBe(0);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
    expect(gunzipSync(zipped.body).toString()).toBe(text);
  });
});

describe('what the fast path leaves to the route', () => {
  const test = servedTest();

  test('a query string: answered by the route, 200 then 304', async ({ h, served }) => {
    const token = await clientToken(h, ['default'], 'development');
    const etag = await etagOf(served, token);
    const before = served.honoCalls();
    const withQuery = await poll(served, token, { 'if-none-match': etag }, '?namePrefix=o');
    expect(withQuery.status).toBe(200); // another query, another ETag
    expect(withQuery.headers.get('etag')).not.toBe(etag);
    expect(await poll(served, token, { 'if-none-match': withQuery.headers.get('etag')! }, '?namePrefix=o').then((r) => r.status)).toBe(304);
    expect((await poll(served, token, {}, '?project=nope')).status).toBe(200);
    expect(served.honoCalls() - before).toBe(3);
  });

  test('no token, an unknown one, a frontend or personal token, a bad client spec: the route\'s errors, nothing answered 304', async ({ h, served }) => {
    const token = await clientToken(h, ['default'], 'development');
    const etag = await etagOf(served, token);
    const frontend = await clientToken(h, ['default'], 'development', 'frontend');
    const personal = await personalToken(h, await createUser(h, { username: 'root', rootRole: 1 }));
    const cases: [string | null, Record<string, string>, number, string][] = [
      [null, {}, 401, 'AuthenticationRequired'],
      ['*:development.not-a-token', {}, 401, 'AuthenticationRequired'],
      [frontend, {}, 403, 'NoAccessError'],
      [personal, {}, 403, 'NoAccessError'],
      [token, { 'unleash-client-spec': 'v5' }, 400, 'ValidationError'],
    ];
    for (const [who, headers, status, name] of cases) {
      const answer = await poll(served, who, { ...headers, 'if-none-match': etag });
      expect(answer.status, `${name} ${JSON.stringify(headers)}`).toBe(status);
      expect((await answer.json() as { name: string }).name).toBe(name);
    }
    expect(JSON.stringify(h.logs())).not.toContain(token);
  });

  test('a token stored before keyed hashes: re-stored once under the key, then 304s', async ({ h, served }) => {
    const secret = 'default:development.legacy-client-token-from-long-ago';
    const legacy = { id: 'legacy-client', hash: legacyHash(secret), tokenName: 'legacy', type: 'client' as const, projects: ['default'], environment: 'development', createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null, userId: null };
    expect((await h.registry.service.send({ type: 'token.create', token: legacy }, 'system')).ok).toBe(true);
    const etag = await etagOf(served, await clientToken(h, ['default'], 'development'));
    const first = await poll(served, secret, { 'if-none-match': etag });
    expect(first.status).toBe(304);
    expect(h.registry.service.state.tokens[legacy.hash]).toBeUndefined(); // re-stored under the keyed hash
    expect(Object.values(h.registry.service.state.tokens).filter((t) => t.id === 'legacy-client')).toHaveLength(1);
    const before = served.honoCalls();
    expect((await poll(served, secret, { 'if-none-match': etag })).status).toBe(304);
    expect(served.honoCalls() - before).toBe(0);
  });
});

describe('CLIENT_FETCH_MODE=streaming', () => {
  const test = servedTest({ CLIENT_FETCH_MODE: 'streaming' });

  test('the 200 and the 304 carry fetch-mode: streaming, as the route\'s answer does', async ({ h, served }) => {
    const token = await clientToken(h, ['default'], 'development');
    const before = served.honoCalls();
    const full = await poll(served, token);
    expect(full.status).toBe(200);
    expect(full.headers.get('fetch-mode')).toBe('streaming');
    expect(served.honoCalls() - before).toBe(0);
    const routed = await h.req('GET', FEATURES, undefined, { token });
    expect(routed.headers.get('fetch-mode')).toBe('streaming');
    const answer = await poll(served, token, { 'if-none-match': full.headers.get('etag')! });
    expect(answer.status).toBe(304);
    expect(answer.headers.get('fetch-mode')).toBe('streaming');
  });
});
