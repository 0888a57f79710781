/**
 * The OFREP event stream over a real socket: the bulk answer's `eventStreams` URL and its ticket,
 * `refetchEvaluation` messages fed by the committed-event feed for changes the token can see, a reconnect with
 * `Last-Event-ID`, the stream limit, `CLIENT_STREAMING=false`, a clean end on shutdown, CORS, and every bad
 * ticket (missing, malformed, forged, expired, another scope, a deleted token) refused with a 401 that leaks
 * neither the ticket nor the token, in answers or logs.
 */
import { describe, expect, test } from 'vitest';
import { scopeFingerprint, StreamTickets } from '../../../src/auth/stream-tickets.js';
import { TokenHasher } from '../../../src/auth/token-hasher.js';
import { readConfig } from '../../../src/config.js';
import { addStrategy, flagPath } from '../../helpers/flags.js';
import { openSse, servedTest } from '../client/stream-fixtures.js';
import { apiToken, BULK, buildOfrepWorld } from './ofrep-fixtures.js';

const EVENTS = '/ofrep/v1/events';

/** The event stream URL of a bulk answer for `token`, on the served base. */
async function streamUrl(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}${BULK}`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{"context":{}}' });
  expect(res.status).toBe(200);
  const body = await res.json() as { eventStreams: { type: string; url: string }[] };
  expect(body.eventStreams).toHaveLength(1);
  return body.eventStreams[0]!.url;
}

/** The path and query of a URL. */
const pathOf = (url: string): string => { const u = new URL(url); return `${u.pathname}${u.search}`; };

const refetches = (data: string | undefined) => JSON.parse(data ?? '{}').type === 'refetchEvaluation';

describe('the event stream', () => {
  const test = servedTest({ LOG_LEVEL: 'info' });

  test('a refetchEvaluation per committed change the token can see, none for others; the URL carries a ticket, never the token', async ({ h, base }) => {
    await buildOfrepWorld(h);
    const token = await apiToken(h, 'frontend');
    const url = await streamUrl(base, token);
    expect(url.startsWith(`${base}${EVENTS}?ticket=`)).toBe(true);
    expect(url).not.toContain(token);
    expect(url).not.toContain(token.split('.')[1]);
    const sse = await openSse(base, null, {}, pathOf(url));
    try {
      expect(sse.status).toBe(200);
      expect(sse.headers.get('content-type')).toBe('text/event-stream');
      await sse.next((m) => m.comment === 'connected');
      // Invisible to this token: another project, another environment.
      expect((await h.req('POST', `${flagPath('elsewhere', 'other')}/environments/development/off`)).status).toBe(200);
      expect((await h.req('POST', `${flagPath('prod-only')}/environments/production/off`)).status).toBe(200);
      expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/off`)).status).toBe(200);
      const message = await sse.next((m) => m.data !== undefined);
      expect(JSON.parse(message.data!)).toEqual({ type: 'refetchEvaluation', etag: String(h.registry.feed.revision) });
      expect(message.id).toBe(String(h.registry.feed.revision));
      // Exactly one message so far: the invisible changes sent none.
      expect(sse.messages.filter((m) => m.data !== undefined)).toHaveLength(1);
      await addStrategy(h, 'dark-mode', 'development', { name: 'userWithId', parameters: { userIds: 'x' } });
      await sse.next((m) => refetches(m.data));
    } finally {
      sse.close();
    }
    // Neither the ticket nor the token reach the log; the request lines name the route template.
    const logs = JSON.stringify(h.logs());
    const ticket = new URL(url).searchParams.get('ticket')!;
    expect(logs).not.toContain(ticket);
    expect(logs).not.toContain(token);
    expect(h.logs().filter((l) => String(l['route']).startsWith('/ofrep')).map((l) => l['route'])).toContain(EVENTS);
  });

  test('a reconnect with an older Last-Event-ID is told to refetch at once; with the current one, not', async ({ h, base }) => {
    await buildOfrepWorld(h);
    const token = await apiToken(h, 'client');
    const path = pathOf(await streamUrl(base, token));
    const before = h.registry.feed.revision;
    expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/off`)).status).toBe(200);
    const behind = await openSse(base, null, { 'last-event-id': String(before) }, path);
    const current = await openSse(base, null, { 'last-event-id': String(h.registry.feed.revision) }, path);
    try {
      expect(JSON.parse((await behind.next(() => true)).data!)).toEqual({ type: 'refetchEvaluation', etag: String(h.registry.feed.revision) });
      expect((await current.next(() => true)).comment).toBe('connected');
    } finally {
      behind.close();
      current.close();
    }
  });

  test('a shutdown ends every stream cleanly', async ({ h, base }) => {
    const path = pathOf(await streamUrl(base, await apiToken(h, 'frontend')));
    const sse = await openSse(base, null, {}, path);
    await sse.next((m) => m.comment === 'connected');
    await h.registry.close();
    expect(await sse.ended).toBe('end');
  });

  test('CORS: a browser on another origin may call the evaluation and open the stream', async ({ h, base }) => {
    const preflight = await fetch(`${base}${BULK}`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,if-none-match' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-none-match');
    const token = await apiToken(h, 'frontend');
    const res = await fetch(`${base}${BULK}`, { method: 'POST', headers: { origin: 'https://app.example', authorization: token, 'content-type': 'application/json' }, body: '{}' });
    expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
    const sse = await openSse(base, null, { origin: 'https://app.example' }, pathOf(await streamUrl(base, token)));
    try {
      expect(sse.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      sse.close();
    }
  });
});

describe('bad tickets', () => {
  const test = servedTest({ LOG_LEVEL: 'info' });

  test('missing, malformed, forged, expired, of another installation, another scope or a deleted token: 401, nothing leaked', async ({ h, base }) => {
    const token = await apiToken(h, 'frontend');
    const good = new URL(await streamUrl(base, token)).searchParams.get('ticket')!;
    const [version, payload, mac] = good.split('.') as [string, string, string];
    const tokens = (await h.json('GET', '/api/admin/api-tokens')).body.tokens as { id: string; tokenName: string; type: string }[];
    const id = tokens.find((t) => t.type === 'frontend')!.id;
    // Minted with this installation's key, as the server would, but wrong in one respect each.
    const minted = new StreamTickets(h.tokenHasher, h.config.ofrepStreamTicketSeconds);
    const scope = scopeFingerprint(['default'], 'development');
    const tamperedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), x: 9_999_999_999 })).toString('base64url');
    const cases: Record<string, string | null> = {
      missing: null,
      empty: '',
      garbage: 'not-a-ticket',
      'too long': `v1.${'a'.repeat(600)}.${mac}`,
      'wrong version': `v2.${payload}.${mac}`,
      'payload altered (a later expiry)': `${version}.${tamperedPayload}.${mac}`,
      'mac altered': `${version}.${payload}.${mac.slice(0, -2)}AA`,
      'another installation': new StreamTickets(new TokenHasher('another-installation-key-0123456789abcdef'), 900).issue({ token: id, scope }),
      expired: minted.issue({ token: id, scope }, Date.now() - 2 * 900 * 1000),
      'another scope': minted.issue({ token: id, scope: scopeFingerprint(['*'], 'production') }),
      'an unknown token': minted.issue({ token: 'no-such-token-id', scope }),
      'a token as the ticket': token,
    };
    for (const [name, ticket] of Object.entries(cases)) {
      const res = await fetch(`${base}${EVENTS}${ticket === null ? '' : `?ticket=${encodeURIComponent(ticket)}`}`);
      const text = await res.text();
      expect(res.status, `${name}: ${text}`).toBe(401);
      expect(JSON.parse(text), name).toMatchObject({ name: 'AuthenticationRequired', message: expect.stringContaining('ticket') });
      if (ticket) expect(text, name).not.toContain(ticket);
      expect(text, name).not.toContain(token);
    }
    // The same ticket, once its token is deleted, opens nothing.
    expect((await fetch(`${base}${EVENTS}?ticket=${good}`)).status).toBe(200);
    expect((await h.req('DELETE', `/api/admin/api-tokens/${id}`)).status).toBeLessThan(300);
    expect((await fetch(`${base}${EVENTS}?ticket=${good}`)).status).toBe(401);
    const logs = JSON.stringify(h.logs());
    for (const ticket of Object.values(cases)) if (ticket) expect(logs).not.toContain(ticket);
    expect(logs).not.toContain(good);
  });
});

describe('limits and switches', () => {
  const limited = servedTest({ CLIENT_STREAMING_MAX_CONNECTIONS: '1' });
  limited('past the stream limit: 429', async ({ h, base }) => {
    const path = pathOf(await streamUrl(base, await apiToken(h, 'frontend')));
    const first = await openSse(base, null, {}, path);
    try {
      expect(first.status).toBe(200);
      const second = await fetch(`${base}${path}`);
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ name: 'TooManyRequests' });
    } finally {
      first.close();
    }
  });

  const off = servedTest({ CLIENT_STREAMING: 'false' });
  off('with CLIENT_STREAMING=false the bulk answer names no stream and the stream is a 404', async ({ h, base }) => {
    const token = await apiToken(h, 'frontend');
    const res = await fetch(`${base}${BULK}`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{}' });
    expect(await res.json()).toEqual({ flags: [] });
    const minted = new StreamTickets(h.tokenHasher, 900);
    const tokens = (await h.json('GET', '/api/admin/api-tokens')).body.tokens as { id: string; type: string }[];
    const ticket = minted.issue({ token: tokens.find((t) => t.type === 'frontend')!.id, scope: scopeFingerprint(['default'], 'development') });
    expect((await fetch(`${base}${EVENTS}?ticket=${ticket}`)).status).toBe(404);
  });

  const proxied = servedTest({ OFREP_PUBLIC_URL: 'https://flags.example.com/' });
  proxied('OFREP_PUBLIC_URL names the origin of the stream URL', async ({ h, base }) => {
    expect(await streamUrl(base, await apiToken(h, 'frontend'))).toMatch(/^https:\/\/flags\.example\.com\/ofrep\/v1\/events\?ticket=v1\./);
  });
});

describe('a ticket for a token that may not evaluate', () => {
  const test = servedTest();
  test('a personal token\'s ticket (minted with the installation key) opens nothing: 403 naming EVALUATE', async ({ h, base }) => {
    const users = await h.json('POST', '/api/admin/user-admin', { username: 'someone', rootRole: 1 });
    expect(users.status).toBe(201);
    expect((await h.json('POST', `/api/admin/user-admin/${users.body.id}/tokens`, { description: 'mine' })).status).toBe(201);
    const personal = ((await h.json('GET', `/api/admin/user-admin/${users.body.id}/tokens`)).body.tokens as { id: string }[])[0]!;
    const ticket = new StreamTickets(h.tokenHasher, 900).issue({ token: personal.id, scope: scopeFingerprint('*', 'default') });
    const res = await fetch(`${base}${EVENTS}?ticket=${ticket}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ name: 'NoAccessError', message: expect.stringContaining('EVALUATE') });
  });
});

describe('settings', () => {
  test.for([
    ['OFREP_STREAM_TICKET_SECONDS', '5'], ['OFREP_STREAM_TICKET_SECONDS', 'soon'], ['OFREP_PUBLIC_URL', 'flags.example.com'],
    ['OFREP_PUBLIC_URL', 'ftp://flags.example.com'], ['OFREP_PUBLIC_URL', 'https://flags.example.com/?a=1'], ['OFREP_PUBLIC_URL', 'https://user:pw@flags.example.com'],
  ])('%s=%s stops the start with a message naming it', ([name, value]) => {
    expect(() => readConfig({ [name!]: value })).toThrow(name);
  });

  test('the defaults, and a public URL with a path prefix', () => {
    const config = readConfig({});
    expect([config.ofrepStreamTicketSeconds, config.ofrepPublicUrl]).toEqual([900, null]);
    expect(readConfig({ OFREP_PUBLIC_URL: 'https://example.com/flags/' }).ofrepPublicUrl).toBe('https://example.com/flags');
  });
});

describe('AUTH_TYPE=none', () => {
  const open = servedTest({ AUTH_TYPE: 'none' });
  open('evaluation and the stream need no token, as every route then', async ({ base }) => {
    const res = await fetch(`${base}${BULK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    const url = new URL(((await res.json()) as { eventStreams: { url: string }[] }).eventStreams[0]!.url);
    const sse = await openSse(base, null, {}, `${url.pathname}${url.search}`);
    try {
      expect(sse.status).toBe(200);
      expect((await sse.next(() => true)).comment).toBe('connected');
    } finally {
      sse.close();
    }
  });
});
