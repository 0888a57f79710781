/**
 * A damaged record in the service log (users, tokens, environments, segments) no longer stops the start: the
 * service state is recovered up to the record before the damage and served read-only; its writes answer 503
 * `Unavailable` naming the key, `/health` and the log say why, and projects keep working.
 */
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { keys } from '../../snapshots/keys.js';
import { expectError } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { createFlag, flagPath } from '../helpers/flags.js';
import { harness } from '../helpers/harness.js';
import { storeOf } from '../helpers/store-of.js';

const test = harnessTest();

/** The service log keys of a stopped data directory, in order. */
async function serviceLogKeys(db: Level<string, string>): Promise<string[]> {
  const prefix = keys.logPrefix('service');
  const found: string[] = [];
  for await (const key of db.keys({ gte: prefix, lt: `${prefix}\xff` })) found.push(key);
  return found;
}

/**
 * Three users created over a fresh data directory, then a crash-like stop (no snapshot at close, so the
 * next start replays the service log); `edit` damages the stored log. Returns the key of the second user's
 * record.
 */
async function damagedDirectory(dir: string, edit: (db: Level<string, string>, key: string) => Promise<void>): Promise<string> {
  const h = await harness({}, dir);
  for (const name of ['before', 'damaged', 'after']) {
    expect((await h.json('POST', '/api/admin/user-admin', { email: `${name}@example.com`, name, rootRole: 3 })).status).toBe(201);
  }
  await createFlag(h, 'kept');
  h.registry.usage.abandon();
  await storeOf(h.registry).close();
  const db = new Level<string, string>(dir, { valueEncoding: 'utf8' });
  await db.open();
  try {
    const logKeys = await serviceLogKeys(db);
    const key = logKeys.at(-2)!;
    await edit(db, key);
    return key;
  } finally {
    await db.close();
  }
}

const damages: [string, (db: Level<string, string>, key: string) => Promise<void>][] = [
  ['a changed byte', async (db, key) => {
    const value = (await db.get(key))!;
    await db.put(key, value.replace('"damaged"', '"dumaged"'));
  }],
  ['a truncated record', async (db, key) => db.put(key, (await db.get(key))!.slice(0, 20))],
  ['a missing record', async (db, key) => db.del(key)],
];

describe('a damaged record in the service log', () => {
  test.for(damages)('%s: the service starts read-only as of the record before, says why, and projects keep working', async ([_label, edit], { tempDir, openHarnessOverTempDir }) => {
    const dir = tempDir('service-damage');
    const key = await damagedDirectory(dir, edit);
    const h = await openHarnessOverTempDir({}, dir);

    // Why, in the log (as an error) and in /health.
    const line = h.logs().find((l) => String(l['msg']).startsWith('service NOT fully recovered, served READ-ONLY'));
    expect(line?.['level']).toBe(50);
    const health = await h.json('GET', '/health', undefined, { token: null });
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    expect(health.body.problems.join(' ')).toContain('The service log (users, tokens, environments, segments) could not be recovered');
    expect(health.body.problems.join(' ')).toMatch(/served read-only as of log position \d+/);

    // Reads: the service as of the record before the damage (the admin token is older, so it still works).
    const users = (await h.json('GET', '/api/admin/user-admin')).body.users.map((u: { name: string }) => u.name);
    expect(users).toContain('before');
    expect(users).not.toContain('damaged');
    expect(users).not.toContain('after');

    // Service writes: 503 naming why; nothing written.
    const seq = h.registry.service.seq;
    const refused = await h.json('POST', '/api/admin/user-admin', { email: 'new@example.com', name: 'new', rootRole: 3 });
    expectError(refused, 503, 'Unavailable', /could not be recovered .*read-only/);
    expectError(await h.json('POST', '/api/admin/environments', { name: 'staging' }), 503, 'Unavailable');
    expectError(await h.json('POST', '/api/admin/api-tokens', { tokenName: 't', type: 'client', projects: ['*'], environment: 'development' }), 503, 'Unavailable');
    expect(h.registry.service.seq).toBe(seq);

    // Projects are their own logs: read and written as before.
    expect((await h.json('GET', flagPath('kept'))).status).toBe(200);
    await createFlag(h, 'new-one');

    // Nothing was written over the damage: the next start is read-only again, with the same view.
    await h.restart();
    expectError(await h.json('POST', '/api/admin/user-admin', { email: 'x@example.com', name: 'x', rootRole: 3 }), 503, 'Unavailable');
    expect((await h.json('GET', flagPath('new-one'))).status).toBe(200);
    expect(h.registry.serviceUnavailable?.message ?? '').toContain(key.slice(0, 8));
  });

  test('an undamaged data directory is served read-write, and /health says serving', async ({ h }) => {
    expect((await h.json('GET', '/health', undefined, { token: null })).body).toEqual({ health: 'GOOD', status: 'serving' });
    expect((await h.json('POST', '/api/admin/user-admin', { email: 'a@example.com', name: 'a', rootRole: 3 })).status).toBe(201);
    expect(h.registry.serviceUnavailable).toBeNull();
  });
});
