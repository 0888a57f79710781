/**
 * `GET /api/frontend` is answered by its fast path before Hono (`src/http/fast-paths/frontend.fast-path.ts`), over a real socket
 * served as `npm start` serves it (`serveApp`). It must answer exactly what the route answers (body, `ETag`,
 * 304, CORS, request id, log line, metric) and leave everything else to the route.
 */
import { describe, expect } from 'vitest';
import { createUser, personalToken } from '../access/access-fixtures.js';
import { envPath } from '../../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../../helpers/harness.js';
import { requestCount, servedAppTest, type Served } from '../../helpers/served-app.js';
import { buildWorld, frontendToken, tokenOf } from './frontend-fixtures.js';

const PATH = '/api/frontend';

const get = (served: Served, query: string, token: string | null, headers: Record<string, string> = {}) =>
  fetch(`${served.base}${PATH}${query}`, { headers: { ...(token === null ? {} : { authorization: token }), ...headers } });

/** The headers both answers must agree on (the request id and date differ by nature). */
const SHARED_HEADERS = ['etag', 'cache-control', 'content-type', 'access-control-allow-origin', 'access-control-expose-headers', 'vary'];
const headersOf = (response: Response) => Object.fromEntries(SHARED_HEADERS.map((name) => [name, response.headers.get(name)]));

describe('GET /api/frontend answered by Node', () => {
  // A 304's request line is at debug.
  const test = servedAppTest({ LOG_LEVEL: 'debug' }, buildWorld);

  test('the same status, bytes and headers as the route, for contexts of every kind, without Hono', async ({ h, served }) => {
    const token = await frontendToken(h);
    // sessionId and remoteAddress are given: left out, each answer gets its own random session and its peer's address.
    const queries = [
      '?userId=alice&sessionId=1&remoteAddress=10.0.0.1',
      '?userId=bob&sessionId=2&remoteAddress=10.0.0.1&properties[plan]=pro&properties[country]=se',
      '?userId=carol&sessionId=3&remoteAddress=10.0.0.1&properties%5Bplan%5D=pro', // what URLSearchParams sends
      '?userId=d%C3%A9j%C3%A0+vu&sessionId=4&remoteAddress=10.0.0.1&appName=web+shop&environment=production',
      '?userId=%E0%A4%A&sessionId=5&remoteAddress=10.0.0.1', // malformed percent-encoding, kept as sent (Hono's rule)
      '?userId=eve&sessionId=6&remoteAddress=10.0.0.1&properties[a.b]=pro&properties[%3Cscript%3E]=x',
      '?userId=&sessionId=7&remoteAddress=10.0.0.1',
      '?sessionId=8&remoteAddress=10.0.0.1&currentTime=2030-01-01T00:00:00.000Z',
    ];
    for (const query of queries) {
      const before = served.honoCalls();
      const node = await get(served, query, token);
      const nodeText = await node.text();
      expect(served.honoCalls() - before, query).toBe(0);
      const routed = await h.req('GET', `${PATH}${query}`, undefined, { token });
      expect(node.status, query).toBe(200);
      expect(routed.status, query).toBe(200);
      expect(nodeText, query).toBe(await routed.text());
      expect(headersOf(node), query).toEqual(headersOf(routed));
      expect(node.headers.get('content-length')).toBe(String(Buffer.byteLength(nodeText)));
    }
    // The world's flags were evaluated, not an empty answer compared with itself.
    const bob = JSON.parse(await (await get(served, queries[1]!, token)).text()) as { toggles: { name: string }[] };
    expect(bob.toggles.map((t) => t.name)).toEqual(expect.arrayContaining(['on', 'pro', 'segmented', 'other-on']));
  });

  test('an admin token reads every project in the context\'s environment, as the route does', async ({ h, served }) => {
    const admin = ADMIN_TOKEN;
    for (const query of ['?userId=a&sessionId=1&remoteAddress=10.0.0.1&environment=production', '?userId=a&sessionId=1&remoteAddress=10.0.0.1']) {
      const node = await get(served, query, admin);
      const routed = await h.req('GET', `${PATH}${query}`, undefined, { token: admin });
      expect(await node.text()).toBe(await routed.text());
    }
    const prod = await (await get(served, '?environment=production', admin)).json() as { toggles: { name: string }[] };
    expect(prod.toggles.map((t) => t.name)).toEqual(['prod-only']);
  });

  test('304 on a matching If-None-Match, with the ETag, a request id, a log line and a metric; a change is a 200 with a new ETag', async ({ h, served }) => {
    const token = await frontendToken(h);
    const query = '?userId=alice&sessionId=1';
    const first = await get(served, query, token);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+:\d+"$/);
    const counted = await requestCount(served, PATH, 304);
    const before = served.honoCalls();

    const again = await get(served, query, token, { 'if-none-match': etag, 'x-request-id': 'browser-poll-1' });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-request-id')).toBe('browser-poll-1');
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    const listed = await get(served, query, token, { 'if-none-match': `"other", ${etag.slice(2)}`, 'x-request-id': 'bad id!' });
    expect(listed.status).toBe(304);
    expect(listed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(served.honoCalls() - before).toBe(0);
    // The route agrees on the 304.
    expect((await h.req('GET', `${PATH}${query}`, undefined, { token, headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(await requestCount(served, PATH, 304)).toBe(counted + 3);
    const line = h.logs().find((l) => l.msg === 'request' && l.reqId === 'browser-poll-1');
    expect(line).toMatchObject({ level: 20, method: 'GET', route: PATH, status: 304, ms: expect.any(Number) });
    expect(JSON.stringify(h.logs())).not.toContain(token);

    expect((await h.req('POST', `${envPath('only-alice', 'development')}/off`)).status).toBe(200);
    const changed = await get(served, query, token, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const toggles = (await changed.json() as { toggles: { name: string }[] }).toggles.map((t) => t.name);
    expect(toggles).not.toContain('only-alice');
    expect(toggles).toContain('on');
  });

  test('the ETag is the same for the same answer and differs for another user\'s', async ({ h, served }) => {
    const token = await frontendToken(h);
    const tags = async (query: string) => {
      const answer = await get(served, query, token);
      return { etag: answer.headers.get('etag'), text: await answer.text() };
    };
    const alice1 = await tags('?userId=alice&sessionId=1');
    const alice2 = await tags('?userId=alice&sessionId=1');
    const bob = await tags('?userId=bob&sessionId=1');
    expect(alice2).toEqual(alice1);
    expect(bob.text).not.toBe(alice1.text);
    expect(bob.etag).not.toBe(alice1.etag);
  });
});

describe('what the fast path leaves to the route', () => {
  const test = servedAppTest({}, buildWorld);

  test('no or a bad token, a client or personal token, a query the route refuses: the route\'s errors', async ({ h, served }) => {
    const token = await frontendToken(h);
    const client = await tokenOf(h, { type: 'client', projects: ['*'], environment: 'development' });
    const personal = await personalToken(h, await createUser(h, { username: 'root', rootRole: 1 }));
    const cases: [string | null, string, number, string][] = [
      [null, '?userId=a', 401, 'AuthenticationRequired'],
      ['*:development.not-a-token', '?userId=a', 401, 'AuthenticationRequired'],
      [client, '?userId=a', 403, 'NoAccessError'],
      [personal, '?userId=a', 403, 'NoAccessError'],
      [token, '?userId=a&userId=b', 400, 'ValidationError'],
      [token, '?properties=x', 400, 'ValidationError'],
      [token, '?userId=a&properties[__proto__]=pro', 400, 'ValidationError'],
      [token, `?userId=${'u'.repeat(1001)}`, 400, 'ValidationError'], // SHAPE_LIMITS.contextValue
    ];
    for (const [who, query, status, name] of cases) {
      const before = served.honoCalls();
      const answer = await get(served, query, who);
      expect(answer.status, `${name} ${query.slice(0, 40)}`).toBe(status);
      const body = await answer.json() as { name: string; id: string };
      expect(body.name).toBe(name);
      expect(body.id).toBe(answer.headers.get('x-request-id'));
      expect(served.honoCalls() - before, query.slice(0, 40)).toBe(1);
    }
    const logged = JSON.stringify(h.logs());
    for (const secret of [token, client, personal]) expect(logged).not.toContain(secret);
  });

  test('other paths and methods go to Hono', async ({ h, served }) => {
    const token = await frontendToken(h);
    const before = served.honoCalls();
    expect((await fetch(`${served.base}${PATH}/`, { headers: { authorization: token } })).status).toBe(404);
    expect((await fetch(`${served.base}${PATH}x?userId=a`, { headers: { authorization: token } })).status).toBe(404);
    const posted = await fetch(`${served.base}${PATH}`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{"context":{"userId":"alice"}}' });
    expect(posted.status).toBe(200);
    expect((await fetch(`${served.base}${PATH}`, { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } })).status).toBe(204);
    expect(served.honoCalls() - before).toBe(4);
  });
});

describe('FRONTEND_CORS_ORIGINS', () => {
  const test = servedAppTest({ FRONTEND_CORS_ORIGINS: 'https://app.example, https://b.example' }, async (h: Harness) => buildWorld(h));

  test('a listed origin is echoed with Vary, another gets none: the route\'s headers', async ({ h, served }) => {
    const token = await frontendToken(h);
    for (const origin of ['https://app.example', 'https://evil.example', undefined]) {
      const headers: Record<string, string> = origin === undefined ? {} : { origin };
      const node = await get(served, '?userId=alice&sessionId=1&remoteAddress=10.0.0.1', token, headers);
      const routed = await h.req('GET', `${PATH}?userId=alice&sessionId=1&remoteAddress=10.0.0.1`, undefined, { token, headers });
      expect(headersOf(node), String(origin)).toEqual(headersOf(routed));
      expect(await node.text()).toBe(await routed.text());
    }
    const listed = await get(served, '?userId=a', token, { origin: 'https://app.example' });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(listed.headers.get('vary')).toBe('Origin');
    expect((await get(served, '?userId=a', token, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin')).toBeNull();
  });
});
