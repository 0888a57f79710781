/**
 * `GET /api/client/streaming` over a real socket (CLIENT-API "Backend SDK API"): the first message, updates
 * per committed change with the revision as `id`, `Last-Event-ID` resumption and its bad values, keep-alive
 * comments, the connection limit (429), `CLIENT_STREAMING=false` (404), a stalled client closed while others
 * keep receiving, a clean end when the registry closes, and who may call.
 */
import { connect } from 'node:net';
import { describe, expect } from 'vitest';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import { ADMIN_TOKEN } from '../../helpers/harness.js';
import { FANOUT_CHUNK } from '../../../src/http/client-stream-pacing.js';
import { clientToken } from './client-fixtures.js';
import { eventsOf, openSse, servedTest, type SseMessage } from './stream-fixtures.js';
import { untilState } from '../../helpers/wait.js';

const test = servedTest();
const updated = (m: SseMessage) => m.event === 'unleash-updated';

describe('messages', () => {
  test('unleash-connected with a hydration, then unleash-updated per change, each with the revision as id', async ({ h, base }) => {
    await createFlag(h, 'one');
    const token = await clientToken(h, ['default'], 'development');
    const stream = await openSse(base, token);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream');
      const first = await stream.next(() => true);
      expect(first.event).toBe('unleash-connected');
      expect(eventsOf(first)).toEqual(['hydration one']);
      expect(Number(first.id)).toBe(h.registry.feed.revision);
      await addStrategy(h, 'one', 'development');
      const m = await stream.next(updated);
      expect(eventsOf(m)).toEqual(['updated one']);
      expect(Number(m.id)).toBe(h.registry.feed.revision);
      // A change in another environment sends nothing to this token; the next one of its own does.
      await addStrategy(h, 'one', 'production');
      await switchOn(h, 'one');
      const on = await stream.next(updated);
      expect(eventsOf(on)).toEqual(['updated one']);
      expect(JSON.parse(on.data!).events[0].feature.enabled).toBe(true);
      expect(stream.messages.filter(updated)).toHaveLength(2);
      expect((await h.req('DELETE', flagPath('one'))).status).toBe(202);
      expect(eventsOf(await stream.next(updated))).toEqual(['removed one']);
    } finally {
      stream.close();
    }
  });

  test('Last-Event-ID the history holds: the deltas after it in unleash-connected', async ({ h, base }) => {
    await createFlag(h, 'one');
    const token = await clientToken(h, ['default'], 'development');
    const from = h.registry.feed.revision;
    await createFlag(h, 'two');
    const stream = await openSse(base, token, { 'last-event-id': String(from) });
    try {
      const first = await stream.next(() => true);
      expect(first.event).toBe('unleash-connected');
      expect(eventsOf(first)).toEqual(['updated two']);
      expect(Number(first.id)).toBe(h.registry.feed.revision);
    } finally {
      stream.close();
    }
  });

  test.for([['not a number', 'abc'], ['from the future', '99999999999'], ['zero', '0'], ['too long', '9'.repeat(300)], ['negative', '-3']])(
    'Last-Event-ID %s: a hydration, never an error', async ([, value], { h, base }) => {
      await createFlag(h, 'one');
      const stream = await openSse(base, await clientToken(h, ['default'], 'development'), { 'last-event-id': value! });
      try {
        expect(stream.status).toBe(200);
        expect(eventsOf(await stream.next(() => true))).toEqual(['hydration one']);
      } finally {
        stream.close();
      }
    });
});

describe('keep-alive and shutdown', () => {
  const quick = servedTest({ CLIENT_STREAMING_KEEPALIVE_MS: '100' });
  quick('a keep-alive comment comes on a quiet stream', async ({ h, base }) => {
    const stream = await openSse(base, await clientToken(h, ['default'], 'development'));
    try {
      expect((await stream.next((m) => m.comment !== undefined)).comment).toBe('keep-alive');
    } finally {
      stream.close();
    }
  });

  const slow = servedTest({ CLIENT_STREAMING_KEEPALIVE_MS: '500' });
  slow(`more streams than one slice (${FANOUT_CHUNK}): each round of keep-alive comments reaches every stream, across its slices`, async ({ h, base }) => {
    const token = await clientToken(h, ['default'], 'development');
    const streams = await Promise.all(Array.from({ length: 2 * FANOUT_CHUNK + 44 }, () => openSse(base, token)));
    const keepAlives = (stream: (typeof streams)[number]) => stream.messages.filter((m) => m.comment === 'keep-alive').length;
    try {
      // Rounds may begin before every stream is open (however long opening them takes): count from the moment
      // all are. Two more rounds reach every stream, and none falls a round behind another; a round that
      // stopped after its first slice would leave the streams past it without any.
      await Promise.all(streams.map((s) => s.next((m) => m.event === 'unleash-connected')));
      const before = streams.map(keepAlives);
      await Promise.all(streams.map((s, i) => s.next((m) => m.comment === 'keep-alive' && keepAlives(s) >= before[i]! + 2)));
      const since = streams.map((s, i) => keepAlives(s) - before[i]!);
      expect(Math.max(...since) - Math.min(...since), JSON.stringify(since)).toBeLessThanOrEqual(1);
    } finally {
      for (const s of streams) s.close();
    }
  }, 60_000); // 108 streams opened and read at once: long on a loaded machine

  test('closing the registry ends every stream cleanly', async ({ h, base }) => {
    const token = await clientToken(h, ['default'], 'development');
    const streams = [await openSse(base, token), await openSse(base, token)];
    await Promise.all(streams.map((s) => s.next(() => true)));
    await h.restart();
    expect(await Promise.all(streams.map((s) => s.ended))).toEqual(['end', 'end']);
    // The restarted server serves new streams.
    const again = await openSse(base, token);
    expect((await again.next(() => true)).event).toBe('unleash-connected');
    again.close();
  });
});

describe('limits', () => {
  const limited = servedTest({ CLIENT_STREAMING_MAX_CONNECTIONS: '2' });
  limited('past CLIENT_STREAMING_MAX_CONNECTIONS: 429 with the error body; a closed stream frees its place', async ({ h, base }) => {
    const token = await clientToken(h, ['default'], 'development');
    const open = [await openSse(base, token), await openSse(base, token)];
    await Promise.all(open.map((s) => s.next(() => true)));
    const refused = await fetch(`${base}/api/client/streaming`, { headers: { authorization: token } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ name: 'TooManyRequests', message: expect.stringContaining('CLIENT_STREAMING_MAX_CONNECTIONS') });
    open[0]!.close();
    await expect.poll(async () => {
      const r = await openSse(base, token);
      r.close();
      return r.status;
    }, untilState()).toBe(200);
    open[1]!.close();
  });

  const off = servedTest({ CLIENT_STREAMING: 'false' });
  off('CLIENT_STREAMING=false: 404, the delta API still answers', async ({ h, base }) => {
    const token = await clientToken(h, ['default'], 'development');
    const r = await fetch(`${base}/api/client/streaming`, { headers: { authorization: token } });
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ name: 'NotFoundError', message: expect.stringContaining('CLIENT_STREAMING=false') });
    expect((await fetch(`${base}/api/client/delta`, { headers: { authorization: token } })).status).toBe(200);
  });

  const small = servedTest({ CLIENT_STREAMING_BUFFER_BYTES: '1024' });
  small('a client that never reads is disconnected; the others keep receiving', async ({ h, base }) => {
    // Large flags, so a few changes fill the socket buffers and then the stream's own.
    await createFlag(h, 'big', { description: 'x'.repeat(1000) });
    for (let i = 0; i < 25; i += 1) await addStrategy(h, 'big', 'development', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: Array.from({ length: 200 }, (_, j) => `user-${i}-${j}`) }] });
    const token = await clientToken(h, ['default'], 'development');
    const port = Number(new URL(base).port);
    const stalled = connect(port, '127.0.0.1');
    stalled.on('error', () => {});
    await new Promise<void>((resolve) => stalled.once('connect', () => resolve()));
    stalled.write(`GET /api/client/streaming HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${token}\r\n\r\n`);
    // Never read: the socket stays paused, so the kernel's buffers fill, then the server's.
    stalled.pause();
    const reader = await openSse(base, token);
    await reader.next(() => true);
    const dropped = () => h.logs().some((l) => String(l['msg']).includes('did not read'));
    let changes = 0;
    while (!dropped() && changes < 600) {
      expect((await h.req('POST', `${flagPath('big')}/environments/development/${changes % 2 === 0 ? 'on' : 'off'}`)).status).toBe(200);
      changes += 1;
    }
    expect(dropped()).toBe(true);
    // The server closed the stalled connection: read now, it ends, short of what was sent.
    let received = 0;
    stalled.on('data', (chunk: Buffer) => { received += chunk.length; });
    const ended = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    stalled.resume();
    await ended;
    // The reader that reads got every change, up to the last, after the other was dropped too.
    expect((await h.req('POST', `${flagPath('big')}/environments/development/${changes % 2 === 0 ? 'on' : 'off'}`)).status).toBe(200);
    const last = h.registry.feed.revision;
    await reader.next((m) => Number(m.id) === last);
    const sent = reader.messages.reduce((n, m) => n + (m.data?.length ?? 0), 0);
    expect(received).toBeLessThan(sent);
    // Every change went out, in order; changes committed within one fan-out's spacing share a message.
    const updates = reader.messages.filter((m) => m.event === 'unleash-updated').map((m) => Number(m.id));
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.length).toBeLessThanOrEqual(changes + 1);
    expect(updates.every((id, i) => i === 0 || id > updates[i - 1]!)).toBe(true);
    expect(updates.at(-1)).toBe(last);
    reader.close();
  });
});

describe('who may call', () => {
  test('an admin token may (environment default); a frontend token is 403; none or an unknown token 401', async ({ h, base }) => {
    const admin = await openSse(base, ADMIN_TOKEN);
    expect(admin.status).toBe(200);
    expect((await admin.next(() => true)).event).toBe('unleash-connected');
    admin.close();
    const frontend = await fetch(`${base}/api/client/streaming`, { headers: { authorization: await clientToken(h, ['default'], 'development', 'frontend') } });
    expect(frontend.status).toBe(403);
    expect(await frontend.json()).toMatchObject({ name: 'NoAccessError' });
    const none = await fetch(`${base}/api/client/streaming`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ name: 'AuthenticationRequired' });
    expect((await fetch(`${base}/api/client/streaming`, { headers: { authorization: 'default:development.not-a-token-0123' } })).status).toBe(401);
  });
});

describe('opened on Node\'s response (the fast path before Hono)', () => {
  const logged = servedTest({ LOG_LEVEL: 'info' });

  logged('the stream carries the request id, and is logged and counted as the route\'s answer would be; the same stream under app.request', async ({ h, base }) => {
    await createFlag(h, 'one');
    const token = await clientToken(h, ['default'], 'development');
    const stream = await openSse(base, token, { 'x-request-id': 'sdk-stream-1' });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('x-request-id')).toBe('sdk-stream-1');
      expect(stream.headers.get('cache-control')).toBe('no-cache');
      expect(stream.headers.get('x-accel-buffering')).toBe('no');
      const first = await stream.next(() => true);
      expect(first.event).toBe('unleash-connected');
      expect(h.logs().find((l) => l.reqId === 'sdk-stream-1')).toMatchObject({ msg: 'request', method: 'GET', route: '/api/client/streaming', status: 200 });
      const scrape = await (await fetch(`${base}/internal-backstage/prometheus`)).text();
      expect(scrape).toMatch(/flagpole_http_request_duration_seconds_count\{[^}]*route="\/api\/client\/streaming"[^}]*status="200"[^}]*\} 1/);
      expect(scrape).toMatch(/flagpole_streaming_clients 1/);
    } finally {
      stream.close();
    }
    // The route itself (Hono, as under app.request) answers the same head and first message.
    const routed = await h.req('GET', '/api/client/streaming', undefined, { token });
    expect(routed.status).toBe(200);
    expect(routed.headers.get('content-type')).toBe('text/event-stream');
    const reader = routed.body!.getReader();
    const chunk = new TextDecoder().decode((await reader.read()).value);
    expect(chunk).toMatch(/^event: unleash-connected\nid: \d+\ndata: /);
    await reader.cancel();
    expect(JSON.stringify(h.logs())).not.toContain(token);
  });
});

describe('fan-out', () => {
  test(`more streams than one chunk (${FANOUT_CHUNK}) each get every change once, in order; writes that keep coming are gathered, none lost`, async ({ h, base }) => {
    await createFlag(h, 'one');
    const token = await clientToken(h, ['default'], 'development');
    const streams = await Promise.all(Array.from({ length: 2 * FANOUT_CHUNK + 44 }, () => openSse(base, token)));
    try {
      await Promise.all(streams.map((s) => s.next((m) => m.event === 'unleash-connected')));
      await addStrategy(h, 'one', 'development');
      const revision = h.registry.feed.revision;
      const first = await Promise.all(streams.map((s) => s.next(updated)));
      for (const m of first) {
        expect(eventsOf(m)).toEqual(['updated one']);
        expect(Number(m.id)).toBe(revision);
      }

      // 40 flags made one after another, while the fan-outs run: each stream learns of every one of them, in
      // fewer messages than changes once the writes outpace the fan-outs, and the last message is the last revision.
      const names = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
      for (const name of names) await createFlag(h, name);
      const last = h.registry.feed.revision;
      for (const stream of streams) {
        await stream.next((m) => updated(m) && Number(m.id) === last);
        const later = stream.messages.filter((m) => updated(m) && Number(m.id) > revision);
        const ids = later.map((m) => Number(m.id));
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(new Set(later.flatMap(eventsOf))).toEqual(new Set(names.map((n) => `updated ${n}`)));
        expect(later.length).toBeLessThanOrEqual(names.length);
      }
    } finally {
      for (const s of streams) s.close();
    }
  }, 30_000);
});

describe('framing', () => {
  test('HTTP/1.1 gets each message as one chunk of a chunked body; an HTTP/1.0 client gets the messages unframed', async ({ h, base }) => {
    await createFlag(h, 'one');
    const token = await clientToken(h, ['default'], 'development');
    const { port } = new URL(base);
    const raw = async (version: string, flag: string): Promise<string> => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => { text += chunk.toString('latin1'); });
      socket.write(`GET /api/client/streaming ${version}\r\nHost: x\r\nAuthorization: ${token}\r\n\r\n`);
      const until = (what: RegExp) => expect.poll(() => text, untilState(10)).toMatch(what);
      await until(/unleash-connected/);
      await addStrategy(h, flag, 'development');
      await switchOn(h, flag, 'development');
      await until(/event: unleash-updated[^]*event: unleash-updated/);
      socket.destroy();
      return text;
    };
    await createFlag(h, 'two');
    const chunked = await raw('HTTP/1.1', 'one');
    expect(chunked).toMatch(/transfer-encoding: chunked/i);
    // Each SSE message is one chunk: its size in hex, then exactly that many bytes, then CRLF.
    const body = chunked.slice(chunked.indexOf('\r\n\r\n') + 4);
    let at = 0;
    const messages: string[] = [];
    while (at < body.length) {
      const eol = body.indexOf('\r\n', at);
      if (eol < 0) break;
      const size = Number.parseInt(body.slice(at, eol), 16);
      expect(Number.isNaN(size)).toBe(false);
      const message = body.slice(eol + 2, eol + 2 + size);
      if (message.length < size) break;
      expect(body.slice(eol + 2 + size, eol + 4 + size)).toBe('\r\n');
      messages.push(message);
      at = eol + 4 + size;
    }
    expect(messages.filter((m) => m.startsWith('event: unleash-updated'))).toHaveLength(2);
    for (const m of messages) expect(m.endsWith('\n\n')).toBe(true);

    const plain = await raw('HTTP/1.0', 'two');
    expect(plain).not.toMatch(/transfer-encoding/i);
    expect(plain.slice(plain.indexOf('\r\n\r\n') + 4)).toMatch(/^event: unleash-connected\nid: \d+\ndata: /);
  });
});
