/**
 * `GET /api/client/delta` over the harness (CLIENT-API "Backend SDK API"): hydration, the events after a
 * revision, 304, the token's scope and environment, removals (archive, delete, out of scope), segments, the
 * bounded history, restarts, and the bad-input rows (revisions that are not numbers or from the future,
 * wrong token types).
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { harnessTest, test } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import { readConfig } from '../../../src/config.js';
import { createProject } from '../access/access-fixtures.js';
import { clientToken } from './client-fixtures.js';
import { untilState } from '../../helpers/wait.js';

const DELTA = '/api/client/delta';

interface DeltaEvent { type: string; eventId: number; features?: { name: string; enabled: boolean }[]; feature?: { name: string; enabled: boolean }; featureName?: string; segments?: unknown[]; segment?: { id: number }; segmentId?: number }

/** `GET /api/client/delta` with `token` and the presented revision (`If-None-Match`, sent as given). */
async function delta(h: Harness, token: string, presented?: string, query = '') {
  const r = await h.json<{ events: DeltaEvent[] }>('GET', `${DELTA}${query}`, undefined, { token, headers: presented === undefined ? {} : { 'if-none-match': presented } });
  return { ...r, etag: r.headers.get('etag') };
}

/** The events of a 200, each as `type name` (or `type #id` for segments). */
const summary = (events: DeltaEvent[]) => events.map((e) => {
  if (e.type === 'hydration') return `hydration ${e.features!.map((f) => f.name).sort().join(',')}`;
  if (e.type === 'feature-updated') return `updated ${e.feature!.name}${e.feature!.enabled ? ' on' : ''}`;
  if (e.type === 'feature-removed') return `removed ${e.featureName}`;
  if (e.type === 'segment-updated') return `segment-updated #${e.segment!.id}`;
  return `segment-removed #${e.segmentId}`;
});

describe('hydration and deltas', () => {
  test('no revision: one hydration with every flag and segment of the scope, ETag the revision', async ({ h }) => {
    await createFlag(h, 'one');
    await createFlag(h, 'two');
    const token = await clientToken(h, ['default'], 'development');
    const r = await delta(h, token);
    expect(r.status).toBe(200);
    expect(summary(r.body.events)).toEqual(['hydration one,two']);
    expect(r.etag).toBe(`"${h.registry.feed.revision}"`);
    expect(r.body.events[0]!.eventId).toBe(h.registry.feed.revision);
    expect(r.body.events[0]!.segments).toEqual([]);
  });

  test('with the ETag: 304 until a change, then only the changed flags, once each, as they are now', async ({ h }) => {
    await createFlag(h, 'one');
    await createFlag(h, 'two');
    const token = await clientToken(h, ['default'], 'development');
    const first = await delta(h, token);
    expect((await delta(h, token, first.etag!)).status).toBe(304);
    await addStrategy(h, 'one', 'development');
    await switchOn(h, 'one');
    await createFlag(h, 'three');
    const next = await delta(h, token, first.etag!);
    expect(next.status).toBe(200);
    expect(summary(next.body.events)).toEqual(['updated one on', 'updated three']);
    expect(next.body.events.map((e) => e.eventId)).toEqual([...next.body.events.map((e) => e.eventId)].sort((a, b) => a - b));
    expect(Number(JSON.parse(next.etag!))).toBe(h.registry.feed.revision);
    expect((await delta(h, token, next.etag!)).status).toBe(304);
  });

  test('archive and delete are removals; revive is an update', async ({ h }) => {
    await createFlag(h, 'old');
    const token = await clientToken(h, ['default'], 'development');
    const start = (await delta(h, token)).etag!;
    expect((await h.req('DELETE', flagPath('old'))).status).toBe(202);
    const archived = await delta(h, token, start);
    expect(summary(archived.body.events)).toEqual(['removed old']);
    expect(archived.body.events[0]).toMatchObject({ project: 'default' });
    expect((await h.req('POST', '/api/admin/projects/default/revive', { features: ['old'] })).status).toBeLessThan(300);
    expect(summary((await delta(h, token, archived.etag!)).body.events)).toEqual(['updated old']);
    expect((await h.req('DELETE', flagPath('old'))).status).toBe(202);
    const before = (await delta(h, token, archived.etag!)).etag!;
    expect((await h.req('POST', '/api/admin/projects/default/delete', { features: ['old'] })).status).toBeLessThan(300);
    expect(summary((await delta(h, token, before)).body.events)).toEqual(['removed old']);
  });

  test('segments: created, updated and deleted are segment events', async ({ h }) => {
    const token = await clientToken(h, ['default'], 'development');
    const start = (await delta(h, token)).etag!;
    const created = await h.json('POST', '/api/admin/segments', { name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const r1 = await delta(h, token, start);
    expect(summary(r1.body.events)).toEqual([`segment-updated #${id}`]);
    expect(r1.body.events[0]!.segment).toEqual({ id, name: 'beta', constraints: [expect.objectContaining({ contextName: 'userId', values: ['1'] })] });
    expect((await h.req('DELETE', `/api/admin/segments/${id}`)).status).toBeLessThan(300);
    expect(summary((await delta(h, token, r1.etag!)).body.events)).toEqual([`segment-removed #${id}`]);
  });
});

describe('large answers', () => {
  test('a hydration of 32 KB or more goes out gzipped once its copy is ready, the same bytes', async ({ h }) => {
    for (let i = 0; i < 60; i += 1) await createFlag(h, `large-${i}`, { description: 'd'.repeat(600) });
    const token = await clientToken(h, ['default'], 'development');
    const plain = await h.req('GET', DELTA, undefined, { token });
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(32 * 1024);
    await expect.poll(async () => (await h.req('GET', DELTA, undefined, { token, headers: { 'accept-encoding': 'gzip' } })).headers.get('content-encoding'), untilState()).toBe('gzip');
    const zipped = await h.req('GET', DELTA, undefined, { token, headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(text);
  });
});

describe('scope', () => {
  test('a change in another environment or project is 304 for this token; an admin token reads ?environment=', async ({ h }) => {
    await createProject(h, 'other');
    await createFlag(h, 'mine');
    await createFlag(h, 'theirs', {}, 'other');
    const token = await clientToken(h, ['default'], 'development');
    const r = await delta(h, token);
    expect(summary(r.body.events)).toEqual(['hydration mine']);
    await addStrategy(h, 'mine', 'production');
    await switchOn(h, 'mine', 'production');
    await addStrategy(h, 'theirs', 'development', { name: 'default' }, 'other');
    expect((await delta(h, token, r.etag!)).status).toBe(304);
    const admin = await delta(h, '*:*.test-admin-token-0123456789', undefined, '?environment=production');
    expect(summary(admin.body.events)).toEqual(['hydration mine,theirs']);
    expect(admin.body.events[0]!.features!.find((f) => f.name === 'mine')!.enabled).toBe(true);
  });

  test('namePrefix and project in the query narrow the scope, never widen it', async ({ h }) => {
    await createProject(h, 'other');
    await createFlag(h, 'web-a');
    await createFlag(h, 'api-b');
    await createFlag(h, 'web-c', {}, 'other');
    const token = await clientToken(h, ['default'], 'development');
    expect(summary((await delta(h, token, undefined, '?namePrefix=web-')).body.events)).toEqual(['hydration web-a']);
    expect(summary((await delta(h, token, undefined, '?project=other')).body.events)).toEqual(['hydration ']);
    const start = (await delta(h, token, undefined, '?namePrefix=web-')).etag!;
    await createFlag(h, 'api-c');
    expect((await delta(h, token, start, '?namePrefix=web-')).status).toBe(304);
  });
});

describe('history and revisions', () => {
  const small = harnessTest({ env: { CLIENT_DELTA_HISTORY_EVENTS: '3' } });
  small('a client further behind than the history gets a hydration; one within it a delta', async ({ h }) => {
    const token = await clientToken(h, ['default'], 'development');
    const start = (await delta(h, token)).etag!;
    for (const name of ['a', 'b', 'c', 'd']) await createFlag(h, name);
    expect(summary((await delta(h, token, start)).body.events)).toEqual(['hydration a,b,c,d']);
    const recent = `"${h.registry.feed.revision - 3}"`;
    expect(summary((await delta(h, token, recent)).body.events)).toEqual(['updated b', 'updated c', 'updated d']);
  });

  const fewBytes = harnessTest({ env: { CLIENT_DELTA_HISTORY_BYTES: '1024' } });
  fewBytes('the byte bound drops the oldest changes too', async ({ h }) => {
    const token = await clientToken(h, ['default'], 'development');
    const start = (await delta(h, token)).etag!;
    await createFlag(h, 'a');
    expect(summary((await delta(h, token, start)).body.events)).toEqual(['updated a']);
    for (const name of ['b', 'c', 'd', 'e', 'f']) await createFlag(h, name);
    expect(h.registry.feed.history.size().bytes).toBeLessThanOrEqual(1024);
    expect(summary((await delta(h, token, start)).body.events)).toEqual(['hydration a,b,c,d,e,f']);
  });

  test('after a restart the revision only grows; the last one before it resumes as a delta, an older one gets a hydration', async ({ h }) => {
    await createFlag(h, 'kept');
    const token = await clientToken(h, ['default'], 'development');
    const older = `"${h.registry.feed.revision - 1}"`;
    const before = (await delta(h, token)).etag!;
    await h.restart();
    expect(h.registry.feed.revision).toBe(Number(JSON.parse(before)));
    expect((await delta(h, token, before)).status).toBe(304);
    await createFlag(h, 'new');
    expect(Number(JSON.parse((await delta(h, token)).etag!))).toBeGreaterThan(Number(JSON.parse(before)));
    expect(summary((await delta(h, token, before)).body.events)).toEqual(['updated new']);
    // The history starts at the restart: what came before it is not held, so nothing can be missed.
    expect(summary((await delta(h, token, older)).body.events)).toEqual(['hydration kept,new']);
  });

  test.for([
    ['not a number', '"abc"'], ['zero', '"0"'], ['negative', '"-5"'], ['from the future', '"999999999"'], ['too long', `"${'9'.repeat(40)}"`],
    ['a list', '"1", "2"'], ['a hash-style ETag', '"351ee66c:12"'], ['a fraction', '"1.5"'], ['empty', ''],
  ])('a presented revision %s gets a hydration, never an error', async ([, presented], { h }) => {
    await createFlag(h, 'one');
    const token = await clientToken(h, ['default'], 'development');
    const r = await delta(h, token, presented);
    expect(r.status).toBe(200);
    expect(summary(r.body.events)).toEqual(['hydration one']);
  });
});

describe('settings', () => {
  test.for([
    ['CLIENT_DELTA_HISTORY_EVENTS', '0'], ['CLIENT_DELTA_HISTORY_BYTES', '10'], ['CLIENT_STREAMING', 'yes'], ['CLIENT_STREAMING_MAX_CONNECTIONS', '-1'],
    ['CLIENT_STREAMING_BUFFER_BYTES', '1'], ['CLIENT_STREAMING_KEEPALIVE_MS', '60000'], ['CLIENT_FETCH_MODE', 'push'],
  ])('%s=%s stops the start with a message naming it', ([name, value]) => {
    expect(() => readConfig({ [name!]: value })).toThrow(name);
  });

  test('the defaults', () => {
    const config = readConfig({});
    expect([config.clientStreaming, config.clientStreamingMaxConnections, config.clientStreamingBufferBytes, config.clientStreamingKeepAliveMs, config.clientFetchMode, config.clientDeltaHistory])
      .toEqual([true, 10_000, 1024 * 1024, 15_000, 'polling', { events: 50_000, bytes: 16 * 1024 * 1024 }]);
  });
});

describe('who may call', () => {
  test('client and admin tokens may; a frontend token is refused (403), none or an unknown one is 401', async ({ h }) => {
    const frontend = await clientToken(h, ['default'], 'development', 'frontend');
    expect((await delta(h, '*:*.test-admin-token-0123456789')).status).toBe(200);
    expect((await delta(h, frontend)).status).toBe(403);
    const none = await h.json('GET', DELTA, undefined, { token: null });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ name: 'AuthenticationRequired' });
    expect((await delta(h, 'default:development.unknown0123456789')).status).toBe(401);
  });

  test('a malformed query is a 400', async ({ h }) => {
    const token = await clientToken(h, ['default'], 'development');
    expect((await delta(h, token, undefined, `?namePrefix=${'x'.repeat(200)}`)).status).toBe(400);
    expect((await delta(h, token, undefined, '?tag=nocolon')).status).toBe(400);
  });
});
