/**
 * Request ids over HTTP (`hono/request-id`): every response carries `X-Request-Id`, success or error, and
 * an error body's `id` is that same id. A caller's own `X-Request-Id` is echoed and becomes the error id,
 * unless it is hostile (characters outside `[A-Za-z0-9_=-]`, or over 255 long): then a UUID replaces it.
 */
import { describe, expect } from 'vitest';
import { UUID } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';
import { featuresPath, flagPath } from '../helpers/flags.js';

const HEADER = 'x-request-id';

/** Requests of every kind of answer: success with and without a body, and each error status. */
const REQUESTS: [string, string, string, unknown, { token?: string | null; headers?: Record<string, string> }][] = [
  ['200 health, unauthenticated', 'GET', '/health', undefined, { token: null }],
  ['200 OpenAPI document', 'GET', '/docs/openapi.json', undefined, { token: null }],
  ['200 flag list', 'GET', featuresPath(), undefined, {}],
  ['201 create', 'POST', featuresPath(), { name: 'made' }, {}],
  ['202 archive, no body', 'DELETE', flagPath('f'), undefined, {}],
  ['400 validation', 'POST', featuresPath(), { name: 'a b' }, {}],
  ['400 [{msg}] of a project-user route', 'POST', '/api/admin/projects/default/users/x/roles/5', undefined, {}],
  ['401 without a token', 'GET', featuresPath(), undefined, { token: null }],
  ['404 unknown flag', 'GET', flagPath('nope'), undefined, {}],
  ['404 unknown route', 'GET', '/api/admin/nothing', undefined, {}],
  ['409 name in use', 'POST', featuresPath(), { name: 'f' }, {}],
  ['412 stale If-Match', 'PUT', flagPath('f'), { name: 'f' }, { headers: { 'if-match': '"999999"' } }],
  ['413 too large', 'POST', featuresPath(), { name: 'big', description: 'x'.repeat(1024 * 1024) }, {}],
  ['415 wrong content type', 'POST', featuresPath(), '{"name":"x"}', { headers: { 'content-type': 'text/plain' } }],
  // The routes of a prefix served by its own app (src/app.ts MOUNTED_PREFIXES) answer the same way.
  ['200 environment list (a mounted prefix)', 'GET', '/api/admin/environments', undefined, {}],
  ['400 validation under a mounted prefix', 'POST', '/api/admin/environments', { name: 'a b' }, {}],
  ['401 without a token under a mounted prefix', 'GET', '/api/admin/context', undefined, { token: null }],
  ['404 unknown route under a mounted prefix', 'GET', '/api/admin/environments/development/x/y', undefined, {}],
];

describe('X-Request-Id', () => {
  test.for(REQUESTS)('%s: the response carries a generated UUID; an error body\'s id is it', async ([_label, method, path, body, options], { h }) => {
    expect((await h.json('POST', featuresPath(), { name: 'f' })).status).toBe(201);
    const r = await h.json(method, path, body, options);
    const id = r.headers.get(HEADER);
    expect(id).toMatch(UUID);
    if (r.status >= 400 && !Array.isArray(r.body)) expect(r.body.id).toBe(id);
  });

  test('each request gets its own id', async ({ h }) => {
    const ids = await Promise.all(Array.from({ length: 20 }, async () => (await h.req('GET', featuresPath())).headers.get(HEADER)));
    expect(new Set(ids).size).toBe(20);
  });

  test('a sent X-Request-Id: abc-123 is echoed, and is the id of an error body', async ({ h }) => {
    const ok = await h.req('GET', featuresPath(), undefined, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get(HEADER)).toBe('abc-123');
    const failed = await h.json('GET', flagPath('nope'), undefined, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(failed.status).toBe(404);
    expect(failed.headers.get(HEADER)).toBe('abc-123');
    expect(failed.body.id).toBe('abc-123');
    const unauthenticated = await h.json('GET', featuresPath(), undefined, { token: null, headers: { 'X-Request-Id': 'abc-123' } });
    expect([unauthenticated.status, unauthenticated.body.id, unauthenticated.headers.get(HEADER)]).toEqual([401, 'abc-123', 'abc-123']);
  });

  test.for([
    ['spaces', 'abc 123'],
    ['300 characters', 'a'.repeat(300)],
    ['a quote and angle brackets', '"><script>'],
    ['a newline escape', 'abc%0d%0aSet-Cookie:x'],
    ['a path', '../../etc/passwd'],
  ])('a hostile one (%s) is replaced by a generated UUID, in the header and the error body', async ([_label, hostile], { h }) => {
    const ok = await h.req('GET', featuresPath(), undefined, { headers: { 'X-Request-Id': hostile! } });
    expect(ok.headers.get(HEADER)).toMatch(UUID);
    const failed = await h.json('GET', flagPath('nope'), undefined, { headers: { 'X-Request-Id': hostile! } });
    const id = failed.headers.get(HEADER);
    expect(id).toMatch(UUID);
    expect(id).not.toBe(ok.headers.get(HEADER));
    expect(failed.body.id).toBe(id);
    expect(JSON.stringify(failed.body)).not.toContain(hostile!.slice(0, 10));
  });

  test('255 characters of the allowed alphabet are kept; 256 are not', async ({ h }) => {
    const longest = `${'a1_-='.repeat(51)}`;
    expect(longest).toHaveLength(255);
    expect((await h.req('GET', featuresPath(), undefined, { headers: { 'X-Request-Id': longest } })).headers.get(HEADER)).toBe(longest);
    expect((await h.req('GET', featuresPath(), undefined, { headers: { 'X-Request-Id': `${longest}a` } })).headers.get(HEADER)).toMatch(UUID);
  });
});
