/**
 * `GET`/`POST /api/frontend` through HTTP (CLIENT-API "Frontend API"): what a context sees, the token types,
 * bounded and hostile contexts, ETag / 304, and CORS on the frontend API only.
 */
import { describe, expect } from 'vitest';
import { harnessTest, test } from '../../helpers/fixtures.js';
import { envPath } from '../../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../../helpers/harness.js';
import { createUser, personalToken } from '../access/access-fixtures.js';
import { buildWorld, frontendToken, togglesOf, tokenOf } from './frontend-fixtures.js';
import { readConfig } from '../../../src/config.js';

const world = harnessTest({ arrange: buildWorld });

describe('what a context sees', () => {
  world('only flags enabled for the context, in the token projects and environment, each with a variant', async ({ h }) => {
    const token = await frontendToken(h, ['default']);
    const toggles = await togglesOf(h, token, { userId: 'nobody', sessionId: '1' });
    expect(Object.keys(toggles).sort()).toEqual(expect.arrayContaining(['on']));
    for (const absent of ['off', 'only-alice', 'pro', 'segmented', 'archived', 'prod-only', 'other-on']) expect(toggles[absent], absent).toBeUndefined();
    expect(toggles['on']).toEqual({
      name: 'on', enabled: true, impressionData: true,
      variant: { name: 'blue', enabled: true, payload: { type: 'string', value: 'sky' }, feature_enabled: true, featureEnabled: true },
    });
    const alice = await togglesOf(h, token, { userId: 'alice', properties: { plan: 'pro', country: 'no' } });
    expect(Object.keys(alice)).toEqual(expect.arrayContaining(['on', 'only-alice', 'pro', 'segmented']));
    expect(alice['pro']!.variant).toEqual({ name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true });
  });

  world('GET reads the same context from the query (properties[name]=value, unknown fields as properties)', async ({ h }) => {
    const token = await frontendToken(h, ['default']);
    const get = await h.json('GET', '/api/frontend?userId=alice&sessionId=1&properties[plan]=pro&country=se', undefined, { token });
    expect(get.status).toBe(200);
    const post = await togglesOf(h, token, { userId: 'alice', sessionId: '1', properties: { plan: 'pro', country: 'se' } });
    expect(Object.fromEntries(get.body.toggles.map((t: { name: string }) => [t.name, t]))).toEqual(post);
    expect(Object.keys(post)).toEqual(expect.arrayContaining(['only-alice', 'pro', 'segmented']));
    expect(get.headers.get('cache-control')).toBe('no-cache');
  });

  world('a token of all projects sees every project; one of production sees production', async ({ h }) => {
    expect(Object.keys(await togglesOf(h, await frontendToken(h, ['*']), {}))).toEqual(expect.arrayContaining(['on', 'other-on']));
    expect(Object.keys(await togglesOf(h, await frontendToken(h, ['other']), {}))).toEqual(['other-on']);
    expect(Object.keys(await togglesOf(h, await frontendToken(h, ['default'], 'production'), {}))).toEqual(['prod-only']);
  });

  world('an admin token reads every project in the environment the context names (default: none there)', async ({ h }) => {
    expect(Object.keys(await togglesOf(h, ADMIN_TOKEN, { environment: 'production' }))).toEqual(['prod-only']);
    expect(Object.keys(await togglesOf(h, ADMIN_TOKEN, { environment: 'development' }))).toEqual(expect.arrayContaining(['on', 'other-on']));
    expect(await togglesOf(h, ADMIN_TOKEN, {})).toEqual({});
  });

  world('a change is seen by the next request (flags are recompiled when the state moves)', async ({ h }) => {
    const token = await frontendToken(h, ['default']);
    expect((await togglesOf(h, token, {}))['off']).toBeUndefined();
    expect((await h.req('POST', `${envPath('off', 'development')}/on`)).status).toBe(200);
    expect((await togglesOf(h, token, {}))['off']?.enabled).toBe(true);
    // A segment change lives in the service, not the project: it is seen too.
    const segments = (await h.json('GET', '/api/admin/segments')).body.segments as { id: number }[];
    const put = await h.json('PUT', `/api/admin/segments/${segments[0]!.id}`, { name: 'nordics', constraints: [{ contextName: 'country', operator: 'IN', values: ['dk'] }] });
    expect(put.status, JSON.stringify(put.body)).toBe(204);
    expect((await togglesOf(h, token, { properties: { country: 'dk' } }))['segmented']?.enabled).toBe(true);
    expect((await togglesOf(h, token, { properties: { country: 'no' } }))['segmented']).toBeUndefined();
  });

  world('a sessionId-sticky rollout without a sessionId gets a random one per request', async ({ h }) => {
    const put = await h.json('POST', `${envPath('off', 'development')}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'sessionId', groupId: 'g' } });
    expect(put.status).toBe(200);
    const strategies = (await h.json('GET', `${envPath('off', 'development')}/strategies`)).body as { id: string; name: string }[];
    for (const s of strategies.filter((x) => x.name === 'default')) expect((await h.req('DELETE', `${envPath('off', 'development')}/strategies/${s.id}`)).status).toBe(200);
    expect((await h.req('POST', `${envPath('off', 'development')}/on`)).status).toBe(200);
    const token = await frontendToken(h, ['default']);
    const seen = new Set<boolean>();
    for (let i = 0; i < 40 && seen.size < 2; i++) seen.add((await togglesOf(h, token, {}))['off'] !== undefined);
    expect([...seen].sort()).toEqual([false, true]);
    const fixed = new Set<boolean>();
    for (let i = 0; i < 10; i++) fixed.add((await togglesOf(h, token, { sessionId: '42' }))['off'] !== undefined);
    expect(fixed.size).toBe(1);
  });
});

describe('ETag', () => {
  world('a weak ETag; If-None-Match naming it answers 304 without a body; a change moves it', async ({ h }) => {
    const token = await frontendToken(h, ['default']);
    const first = await h.req('GET', '/api/frontend?userId=alice&sessionId=1', undefined, { token });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await h.req('GET', '/api/frontend?userId=alice&sessionId=1', undefined, { token, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const post = await h.req('POST', '/api/frontend', { context: { userId: 'alice', sessionId: '1' } }, { token, headers: { 'if-none-match': etag } });
    expect(post.status).toBe(304);
    await h.req('POST', `${envPath('off', 'development')}/on`);
    const changed = await h.req('GET', '/api/frontend?userId=alice&sessionId=1', undefined, { token, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('who may call it', () => {
  test('frontend and admin tokens 200; client and personal tokens 403; unknown or no token 401', async ({ h }) => {
    const admin = await createUser(h, { username: 'root', rootRole: 1 });
    const tokens = {
      frontend: await frontendToken(h),
      client: await tokenOf(h, { type: 'client', environment: 'development' }),
      personal: await personalToken(h, admin),
    };
    for (const method of ['GET', 'POST'] as const) {
      const call = (token: string | null) => h.json(method, '/api/frontend', method === 'POST' ? { context: {} } : undefined, { token });
      expect((await call(tokens.frontend)).status).toBe(200);
      expect((await call(ADMIN_TOKEN)).status).toBe(200);
      for (const token of [tokens.client, tokens.personal]) {
        const res = await call(token);
        expect(res.status).toBe(403);
        expect(res.body.message).toContain('FRONTEND_API');
      }
      expect((await call('*:development.unknown0000')).status).toBe(401);
      expect((await call(null)).status).toBe(401);
    }
  });

  test('a frontend token gets 403 on the admin API and the playground', async ({ h }) => {
    const token = await frontendToken(h);
    expect((await h.json('GET', '/api/admin/projects', undefined, { token })).status).toBe(403);
    expect((await h.json('POST', '/api/admin/playground', { environment: 'development' }, { token })).status).toBe(403);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'x' }, { token })).status).toBe(403);
  });

  test('a frontend token names one environment (400 without or with *) and existing projects (404)', async ({ h }) => {
    for (const body of [{ type: 'frontend' }, { type: 'frontend', environment: '*' }]) {
      const res = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'fe', ...body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('"environment"');
    }
    expect((await h.json('POST', '/api/admin/api-tokens', { tokenName: 'fe', type: 'frontend', projects: ['nope'], environment: 'development' })).status).toBe(404);
    const created = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'fe', type: 'FRONTEND', project: 'default', environment: 'production' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'frontend', projects: ['default'], environment: 'production', prefix: 'default:production.' });
    expect(created.body.secret).toMatch(/^default:production\.[0-9a-f]{56}$/);
    const listed = (await h.json('GET', '/api/admin/api-tokens')).body.tokens as { type: string }[];
    expect(listed.some((t) => t.type === 'frontend')).toBe(true);
  });
});

describe('INIT_FRONTEND_API_TOKENS', () => {
  test('creates frontend tokens at start, the scope read from each secret', async ({ openHarness }) => {
    const h = await openHarness({ INIT_FRONTEND_API_TOKENS: 'default:development.init0123456789, *:production.init9876543210' });
    await buildWorld(h);
    expect(Object.keys(await togglesOf(h, 'default:development.init0123456789', {}))).toContain('on');
    expect(Object.keys(await togglesOf(h, '*:production.init9876543210', {}))).toEqual(['prod-only']);
    expect((await h.json('GET', '/api/admin/projects', undefined, { token: 'default:development.init0123456789' })).status).toBe(403);
    await h.restart();
    expect(Object.keys(await togglesOf(h, 'default:development.init0123456789', {}))).toContain('on');
  });

  test.for([
    'default:development',
    'default.development.abcdefgh1234',
    'default:*.abcdefgh1234',
    '[]:development.abcdefgh1234',
    'default:development.short',
    '__proto__:development.abcdefgh1234',
  ])('a malformed secret (%s) stops the start naming the variable', (secret) => {
    expect(() => readConfig({ INIT_FRONTEND_API_TOKENS: secret })).toThrow(/^INIT_FRONTEND_API_TOKENS: /);
  });

  test('a secret naming an unknown project or environment stops the start', async ({ openHarness }) => {
    await expect(openHarness({ INIT_FRONTEND_API_TOKENS: 'nope:development.abcdefgh1234' })).rejects.toThrow(/INIT_FRONTEND_API_TOKENS.*"nope"/);
    await expect(openHarness({ INIT_FRONTEND_API_TOKENS: 'default:staging.abcdefgh1234' })).rejects.toThrow(/INIT_FRONTEND_API_TOKENS.*"staging"/);
  });
});

/** Asserts a 400 naming `what`, and that the next well-formed request answers as before. */
async function refused(h: Harness, token: string, send: () => Promise<{ status: number; body: any }>, what: string): Promise<void> {
  const before = await togglesOf(h, token, { sessionId: '1' });
  const res = await send();
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.name).toBe('ValidationError');
  expect(res.body.message).toContain(what);
  expect(JSON.stringify(res.body).length).toBeLessThan(4000);
  expect(await togglesOf(h, token, { sessionId: '1' })).toEqual(before);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

describe('bounded and hostile contexts: 400, nothing changed', () => {
  world('query rows', async ({ h }) => {
    const token = await frontendToken(h, ['default']);
    const get = (query: string) => () => h.json('GET', `/api/frontend?${query}`, undefined, { token });
    await refused(h, token, get(`userId=${'x'.repeat(1_000_000)}`), 'userId');
    await refused(h, token, get(`userId=${'x'.repeat(1001)}`), 'at most 1000 characters');
    await refused(h, token, get('properties[__proto__]=x'), '__proto__');
    await refused(h, token, get('properties[constructor]=x'), 'constructor');
    await refused(h, token, get('__proto__[polluted]=1'), '__proto__');
    await refused(h, token, get('constructor=x'), 'constructor');
    await refused(h, token, get('userId=a&userId=b'), 'userId');
    await refused(h, token, get('properties=x'), 'properties');
    await refused(h, token, get('currentTime=yesterday'), 'currentTime');
    await refused(h, token, get(`properties[${'k'.repeat(101)}]=x`), 'at most 100 characters');
    await refused(h, token, get(Array.from({ length: 51 }, (_, i) => `properties[p${i}]=v`).join('&')), 'at most 50 properties');
    // 50 are fine, some of them unknown top-level fields.
    const fifty = Array.from({ length: 48 }, (_, i) => `properties[p${i}]=v`).join('&');
    expect((await h.json('GET', `/api/frontend?${fifty}&a=1&b=2`, undefined, { token })).status).toBe(200);
  });

  world('body rows', async ({ h }) => {
    const token = await frontendToken(h, ['default']);
    const post = (body: unknown) => () => h.json('POST', '/api/frontend', body, { token });
    await refused(h, token, post({ context: { userId: 'x'.repeat(1_000_000) } }), 'userId');
    await refused(h, token, post('{"context":{"properties":{"__proto__":{"polluted":1}}}}'), '__proto__');
    await refused(h, token, post('{"context":{"__proto__":"x"}}'), '__proto__');
    await refused(h, token, post({ context: { properties: { constructor: 'x' } } }), 'constructor');
    await refused(h, token, post({ context: { constructor: 'x' } }), 'constructor');
    await refused(h, token, post({ context: 'alice' }), 'context');
    await refused(h, token, post({ context: { properties: ['pro'] } }), 'properties');
    await refused(h, token, post({ context: { userId: { id: 1 } } }), 'userId');
    await refused(h, token, post({ context: { properties: { plan: ['pro'] } } }), 'plan');
    await refused(h, token, post({ context: { properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, 'v'])) } }), 'at most 50 properties');
    await refused(h, token, post({ context: { currentTime: 'noon' } }), 'currentTime');
    await refused(h, token, post([]), 'object');
    expect((await h.json('POST', '/api/frontend', '{"context":', { token })).status).toBe(400);
    // Numbers and booleans are read as strings; null is absent; an absent context is empty.
    expect(Object.keys(await togglesOf(h, token, { userId: null, properties: { plan: 'pro', n: 1, b: true } }))).toContain('pro');
    expect((await h.json('POST', '/api/frontend', {}, { token })).status).toBe(200);
  });

  world('currentTime is read (DATE_AFTER), and defaults to now', async ({ h }) => {
    const path = `${envPath('off', 'development')}/strategies`;
    const add = await h.json('POST', path, { name: 'default', constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00.000Z' }] });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const strategies = (await h.json('GET', path)).body as { id: string; constraints: unknown[] }[];
    for (const s of strategies.filter((x) => x.constraints.length === 0)) expect((await h.req('DELETE', `${path}/${s.id}`)).status).toBe(200);
    await h.req('POST', `${envPath('off', 'development')}/on`);
    const token = await frontendToken(h, ['default']);
    expect((await togglesOf(h, token, {}))['off']).toBeUndefined();
    expect((await togglesOf(h, token, { currentTime: '2031-01-01T00:00:00.000Z' }))['off']?.enabled).toBe(true);
  });
});

describe('CORS on /api/frontend only', () => {
  const preflight = (h: Harness, path: string, origin: string) =>
    h.req('OPTIONS', path, undefined, { token: null, headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,if-none-match,unleash-sdk' } });

  test('default *: a preflight needs no token; the headers the SDK sends are allowed, ETag exposed', async ({ h }) => {
    const res = await preflight(h, '/api/frontend', 'https://app.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-none-match', 'unleash-sdk', 'unleash-appname', 'unleash-connection-id']));
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');
    expect((await preflight(h, '/api/frontend/client/metrics', 'https://app.example')).headers.get('access-control-allow-origin')).toBe('*');
    // The answers carry it too, errors included.
    const token = await frontendToken(h);
    const get = await h.req('GET', '/api/frontend', undefined, { token, headers: { origin: 'https://app.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toBe('ETag');
    const refusedAnswer = await h.req('GET', '/api/frontend', undefined, { token: 'nope', headers: { origin: 'https://app.example' } });
    expect(refusedAnswer.status).toBe(401);
    expect(refusedAnswer.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('no CORS on the admin API', async ({ h }) => {
    const res = await preflight(h, '/api/admin/projects', 'https://app.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await h.req('GET', '/api/admin/projects', undefined, { headers: { origin: 'https://app.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  const configured = harnessTest({ env: { FRONTEND_CORS_ORIGINS: 'https://app.example, https://b.example' } });
  configured('FRONTEND_CORS_ORIGINS: a listed origin is echoed, another gets no Allow-Origin', async ({ h }) => {
    const listed = await preflight(h, '/api/frontend', 'https://b.example');
    expect(listed.status).toBe(204);
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://b.example');
    expect(listed.headers.get('vary')).toContain('Origin');
    const other = await preflight(h, '/api/frontend', 'https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const token = await frontendToken(h);
    const get = await h.req('GET', '/api/frontend', undefined, { token, headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});

