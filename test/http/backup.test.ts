/**
 * `GET /api/admin/backup` (the stream behind `flagpole backup`): the file's frame and content (the live dump
 * plus the token hashes, nothing of a secret), the shared limit of streams, and the refusal to back up a
 * service with a project it could not recover.
 */
import { describe, expect } from 'vitest';
import { decode, encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import { DUMP_STREAMS_AT_ONCE } from '../../src/http/streams/dump-streams.js';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../helpers/harness.js';
import { expectError } from '../helpers/expect.js';
import { ok, populate } from '../snapshots/fixtures.js';

describe('GET /api/admin/backup', () => {
  test('newline-delimited JSON: header, service with token hashes, each project and its flags in stored order, end; the rest equals the live dump', async ({ h }) => {
    await populate(h);
    const client = await ok(h, 'POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'development' });
    const response = await h.req('GET', '/api/admin/backup');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    for (const secret of [ADMIN_TOKEN, client.secret as string]) expect(text).not.toContain(secret);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line));

    const [header, service, ...rest] = lines;
    expect(header).toEqual({ flagpoleBackup: 1, dumpFormat: 1, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), machines: { 'flag-environment': 1, 'flag-lifecycle': 1, 'flag-stage': 1, 'change-request': 1 }, projects: 2, flags: 4 });
    expect(rest.at(-1)).toEqual({ end: { projects: 2, flags: 4 } });
    const tokens = Object.entries(service.service.state.tokens) as [string, Record<string, unknown>][];
    expect(tokens).toHaveLength(2);
    for (const [key, token] of tokens) {
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(token.hash).toBe(key);
      expect(token).not.toHaveProperty('prefix');
    }
    expect(rest.slice(0, -1).map((l) => (l.project ? `project ${l.project.id} ${l.flags}` : `flag ${l.flag.name}`))).toEqual([
      'project beta 1', 'flag b1', 'project default 3', 'flag zeta', 'flag alpha', 'flag mid',
    ]);

    // Less the hashes (of tokens and of passwords: none here), and framed as a dump, it is the live dump.
    const { passwords, ...state } = service.service.state;
    expect(passwords).toEqual({});
    const live = await (await h.req('GET', '/api/admin/state')).json() as any;
    const projects: any[] = [];
    for (const line of rest.slice(0, -1)) {
      if (line.project) projects.push({ ...line.project, flags: [] });
      else projects.at(-1).flags.push(line.flag);
    }
    const byId = Object.fromEntries(tokens.map(([, { hash: _hash, ...token }]) => [token.id, token]));
    expect({ format: 1, service: { seq: service.service.seq, state: { ...state, tokens: byId } }, projects }).toEqual(live);
  });

  test(`shares the limit of ${DUMP_STREAMS_AT_ONCE} streams with the dumps: the next is a 429 until one ends`, async ({ h }) => {
    // Enough flags that neither answer is written in its first chunk.
    const actor = h.registry.project('default')!;
    const sends = Array.from({ length: 2000 }, (_, k) => actor.send({ type: 'flag.create', name: `flag-${k}`, description: 'd'.repeat(100), flagType: 'release', impressionData: false }, 'system'));
    for (const decision of await Promise.all(sends)) expect(decision.ok).toBe(true);
    const open = [await h.req('GET', '/api/admin/backup'), await h.req('GET', '/api/admin/state')];
    for (const r of open) expect(r.status).toBe(200);
    const busy = await h.json('GET', '/api/admin/backup');
    expectError(busy, 429, 'TooManyRequests', /2 dumps or backups are being written already/);
    expect(busy.headers.get('retry-after')).toBe('1');
    await open[0]!.body!.cancel();
    const next = await h.req('GET', '/api/admin/backup');
    expect(next.status).toBe(200);
    await next.text();
    await open[1]!.text();
  });

  test('refuses (503, naming it) while a project could not be recovered: a backup without it would lose it', async ({ h }) => {
    await ok(h, 'POST', '/api/admin/projects', { id: 'beta', name: 'Beta' });
    await ok(h, 'POST', '/api/admin/projects/beta/features', { name: 'b1' });
    // A snapshot written by newer code (a machine version this code does not have) makes "beta" unavailable.
    await h.restart(async (_dataDir, openStore) => {
      const store = await openStore();
      try {
        for await (const [key, value] of store.entries(keys.snapshotPrefix({ project: 'beta' }))) {
          if (!key.endsWith('/head')) continue;
          const head = decode<{ machines: Record<string, number> }>(key, value);
          await store.commit([{ type: 'put', key, value: encode({ ...head, machines: { ...head.machines, 'flag-lifecycle': 99 } }) }]);
        }
      } finally {
        await store.close();
      }
    });
    expect(h.registry.unavailable.has('beta')).toBe(true);
    const refused = await h.json('GET', '/api/admin/backup');
    expectError(refused, 503, 'Unavailable', /Cannot back up: project "beta" could not be recovered at start/);
    // The rest of the service still serves and dumps.
    expect((await h.req('GET', '/api/admin/state?project=default')).status).toBe(200);
  });

  test('needs an admin token: none is 401, a client token 403, and nothing is streamed', async ({ h }) => {
    const client = await ok(h, 'POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'development' });
    expectError(await h.json('GET', '/api/admin/backup', undefined, { token: null }), 401, 'AuthenticationRequired');
    expectError(await h.json('GET', '/api/admin/backup', undefined, { token: client.secret }), 403, 'NoAccessError');
  });
});
