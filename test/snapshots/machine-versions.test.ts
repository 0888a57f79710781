/**
 * Machine versions are kept next to stored values and checked on recovery: a project snapshot whose head
 * records machine versions this code cannot read (written by newer code, or by older code without a
 * migration) is not read as if current. That project answers 503 `Unavailable` naming the key and why; the
 * other projects are served, and the data is all there once the versions agree again.
 */
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { FLAG_LIFECYCLE_MACHINE_VERSION, PROJECT_MACHINE_VERSIONS } from '../../machines/versions.js';
import { decode, encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { SnapshotHead } from '../../snapshots/records.js';
import { IncompatibleSnapshotError } from '../../src/actors/recovery/recover.js';
import { expectError } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { createFlag, featuresPath, flagPath } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const test = harnessTest({ env: { SNAPSHOT_EVERY: '1' } });

const DEFAULT = { project: 'default' };

/**
 * Rewrites the `machines` record of the newest snapshot head of project `default` in a stopped data
 * directory (validly encoded: this is other code's data, not damage); returns the head's key.
 */
async function rewriteNewestHead(dir: string, machines: Record<string, number>): Promise<string> {
  const db = new Level<string, string>(dir, { valueEncoding: 'utf8' });
  await db.open();
  try {
    const prefix = keys.snapshotPrefix(DEFAULT);
    const heads: string[] = [];
    for await (const key of db.keys({ gte: prefix, lt: `${prefix}\xff` })) if (key.endsWith('/head')) heads.push(key);
    const newest = heads.at(-1);
    if (!newest) throw new Error('no snapshot of project default');
    const head = decode<SnapshotHead>(newest, (await db.get(newest))!);
    expect(newest).toBe(keys.snapshotHead(DEFAULT, head.seq));
    await db.put(newest, encode({ ...head, machines }));
    return newest;
  } finally {
    await db.close();
  }
}

/** Project `default` with flag `f`, project `web` with flag `w`, both snapshotted and read back after a restart. */
async function snapshotted(h: Harness): Promise<void> {
  await createFlag(h, 'f', { description: 'kept' });
  expect((await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web' })).status).toBe(201);
  await createFlag(h, 'w', {}, 'web');
  await h.registry.project('default')!.snapshot();
  await h.restart();
  expect(h.registry.unavailable.size).toBe(0);
  expect((await h.json('GET', flagPath('f'))).body.description).toBe('kept');
}

/** Project `default` answers 503 Unavailable on its routes, naming `key` and saying `why`; `web` is served. */
async function expectOnlyDefaultUnavailable(h: Harness, key: string, why: RegExp): Promise<void> {
  expect(h.registry.unavailable.get('default')).toBeInstanceOf(IncompatibleSnapshotError);
  expect(h.registry.project('default')).toBeUndefined();
  for (const path of [flagPath('f'), featuresPath(), '/api/admin/projects/default']) {
    const r = await h.json('GET', path);
    expectError(r, 503, 'Unavailable', why);
    expect(r.body.message).toContain(key);
  }
  expectError(await h.json('POST', featuresPath(), { name: 'g' }), 503, 'Unavailable');
  const web = await h.json('GET', featuresPath('web'));
  expect(web.status).toBe(200);
  expect(web.body.features.map((f: { name: string }) => f.name)).toEqual(['w']);
  expect((await h.json('POST', featuresPath('web'), { name: 'w2' })).status).toBe(201);
  expect((await h.json('GET', '/api/admin/projects')).status).toBe(200);
}

describe('a snapshot head with other machine versions', () => {
  test('written by newer code: the project is not served (503 naming the key, "written by newer code"); the others are', async ({ h }) => {
    await snapshotted(h);
    const newer = { ...PROJECT_MACHINE_VERSIONS, 'flag-lifecycle': FLAG_LIFECYCLE_MACHINE_VERSION + 1 };
    let key = '';
    await h.restart(async (dir) => { key = await rewriteNewestHead(dir, newer); });
    await expectOnlyDefaultUnavailable(h, key, /written by newer code/);
    expect(h.registry.unavailable.get('default')!.message)
      .toContain(`flag-lifecycle machine version ${FLAG_LIFECYCLE_MACHINE_VERSION + 1}; this code has version ${FLAG_LIFECYCLE_MACHINE_VERSION}`);
  });

  test('written by older code with no migration: not served either, naming the missing step', async ({ h }) => {
    await snapshotted(h);
    let key = '';
    await h.restart(async (dir) => { key = await rewriteNewestHead(dir, { ...PROJECT_MACHINE_VERSIONS, 'flag-lifecycle': 0 }); });
    await expectOnlyDefaultUnavailable(h, key, /no migration of the flag-lifecycle machine from version 0 to 1/);
  });

  test('written before the flag-stage machine existed: migrated and served, every flag at its initial stage', async ({ h }) => {
    await snapshotted(h);
    const { 'flag-stage': _stage, ...before } = PROJECT_MACHINE_VERSIONS;
    await h.restart(async (dir) => { await rewriteNewestHead(dir, before); });
    expect(h.registry.unavailable.size).toBe(0);
    const lifecycle = await h.json('GET', `${flagPath('f')}/lifecycle`);
    expect(lifecycle.status).toBe(200);
    expect(lifecycle.body).toEqual([{ stage: 'initial', enteredStageAt: expect.any(String) }]);
  });

  test('naming a machine this code does not know: not served', async ({ h }) => {
    await snapshotted(h);
    let key = '';
    await h.restart(async (dir) => { key = await rewriteNewestHead(dir, { ...PROJECT_MACHINE_VERSIONS, 'flag-gremlin': 1 }); });
    await expectOnlyDefaultUnavailable(h, key, /flag-gremlin machine/);
  });

  test('nothing is lost: once the versions agree again, the project is served with its data', async ({ h }) => {
    await snapshotted(h);
    await h.restart(async (dir) => { await rewriteNewestHead(dir, { ...PROJECT_MACHINE_VERSIONS, 'flag-lifecycle': FLAG_LIFECYCLE_MACHINE_VERSION + 1 }); });
    expect((await h.json('GET', flagPath('f'))).status).toBe(503);
    await h.restart(async (dir) => { await rewriteNewestHead(dir, { ...PROJECT_MACHINE_VERSIONS }); });
    expect(h.registry.unavailable.size).toBe(0);
    expect((await h.json('GET', flagPath('f'))).body).toMatchObject({ name: 'f', description: 'kept' });
  });
});
