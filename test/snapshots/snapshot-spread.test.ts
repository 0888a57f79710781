/**
 * Older snapshots kept spread over the log (`snapshots/snapshot-spread.ts`, `pruneSnapshots`): the bound and the
 * spread, disk use over many snapshots, LOG_RETENTION, recovery falling back through them, and past states
 * (`dump --at`, `PastStates`) read from an older snapshot equal to a full replay.
 */
import { cpSync } from 'node:fs';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import { spreadSnapshots } from '../../snapshots/snapshot-spread.js';
import { pruneSnapshots, writeSnapshot } from '../../snapshots/snapshot-writer.js';
import { LevelStore } from '../../snapshots/level-store.js';
import type { Store } from '../../snapshots/store.js';
import { PastCheckpoints } from '../../src/actors/past-checkpoints.js';
import { PastStates } from '../../src/actors/past-states.js';
import { projectModel } from '../../src/actors/project-model.js';
import { Registry } from '../../src/actors/registry.js';
import { dumpRegistry, stableStringify } from '../../src/actors/state-dump.js';
import { SNAPSHOTS_SPREAD } from '../../src/limits.js';
import { test } from '../helpers/fixtures.js';
import { harness } from '../helpers/harness.js';
import { ok } from './fixtures.js';
import { dumpCli } from './run-cli.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

const SCOPE = { project: 'default' };
const F = '/api/admin/projects/default/features';
const KEPT = { newest: 2, spread: SNAPSHOTS_SPREAD };

/** Every key under `prefix`, and the sequence numbers of the snapshot heads among them. */
async function snapshotKeys(store: Store): Promise<{ all: string[]; heads: number[] }> {
  const prefix = keys.snapshotPrefix(SCOPE);
  const all: string[] = [];
  for await (const key of store.keys(prefix)) all.push(key);
  const heads = all.filter((k) => k.endsWith('/head')).map((k) => Number(k.slice(prefix.length, -'/head'.length)));
  return { all, heads };
}

/** The largest gap between consecutive entries of `[from, ...seqs]`. */
const widestGap = (from: number, seqs: number[]) => Math.max(...seqs.map((s, i) => s - (seqs[i - 1] ?? from)));

describe('spreadSnapshots', () => {
  test('keeps at most `most`, spread: no gap past twice an even share of the span, however many arrived', () => {
    let kept: number[] = [];
    for (let n = 1; n <= 400; n += 1) {
      const all = [...kept, 10 * n];
      const newest = all.slice(-2);
      kept = [...spreadSnapshots(all.slice(0, -2), 8, 0, newest[0]!), ...newest];
      expect(kept.length).toBe(Math.min(n, 10));
      expect(widestGap(0, kept), `after ${n}`).toBeLessThanOrEqual(2 * Math.max(10, (10 * n) / kept.length));
    }
    expect(spreadSnapshots([10, 20, 25, 40], 3, 0, 50)).toEqual([10, 25, 40]);
    expect(spreadSnapshots([10, 20], 0, 0, 50)).toEqual([]);
  });
});

describe('pruneSnapshots on LevelDB', () => {
  test('over 60 snapshots: the two newest and 8 spread older ones stay, orphan chunks go, disk use stays bounded', async ({ tempDir }) => {
    const store = await LevelStore.open(tempDir('spread'));
    try {
      const items = Array.from({ length: 300 }, (_, i) => ({ name: `flag-${i}`, description: 'x'.repeat(400) }));
      let mostKeys = 0;
      for (let n = 1; n <= 60; n += 1) {
        const seq = 100 * n;
        // A snapshot that died mid-write just before this one: chunks and no head.
        await store.commit([{ type: 'put', key: keys.snapshotChunk(SCOPE, seq - 50, 0), value: encode([{ name: 'half' }]) }]);
        await writeSnapshot(store, SCOPE, { seq, at: new Date().toISOString(), machines: {}, meta: { n } }, items);
        await pruneSnapshots(store, SCOPE, KEPT, 'all');
        const { all, heads } = await snapshotKeys(store);
        expect(heads.length).toBe(Math.min(n, 10));
        expect(heads.slice(-2)).toEqual(n === 1 ? [seq] : [seq - 100, seq]);
        expect(widestGap(0, heads), `after ${n}`).toBeLessThanOrEqual(2 * Math.max(100, seq / heads.length));
        // Only the heads' own keys remain: every orphan below the newest head is gone.
        const prefix = keys.snapshotPrefix(SCOPE);
        expect(new Set(all.map((k) => Number(k.slice(prefix.length, prefix.length + 16))))).toEqual(new Set(heads));
        mostKeys = Math.max(mostKeys, all.length);
      }
      const chunksEach = (await snapshotKeys(store)).all.length / 10;
      expect(chunksEach).toBeGreaterThan(2);
      expect(mostKeys).toBeLessThanOrEqual(10 * chunksEach);
    } finally {
      await store.close();
    }
  });

  test('with LOG_RETENTION, no older snapshot is kept that the trimmed log cannot replay forward from', async ({ tempDir }) => {
    const store = await LevelStore.open(tempDir('spread-retention'));
    try {
      for (let seq = 1; seq <= 1000; seq += 1) {
        await store.writeUnsynced([{ type: 'put', key: keys.log(SCOPE, seq), value: encode({ seq }) }]);
        if (seq % 100 === 0) {
          await writeSnapshot(store, SCOPE, { seq, at: '', machines: {}, meta: {} }, [{ seq }]);
          await pruneSnapshots(store, SCOPE, KEPT, 250);
        }
      }
      const { heads } = await snapshotKeys(store);
      let first = 0;
      for await (const key of store.keys(keys.logPrefix(SCOPE), { limit: 1 })) first = Number(key.slice(keys.logPrefix(SCOPE).length));
      // The log keeps 250 records before the older of the two newest (900): from 651 on; snapshots from 650 on.
      expect(first).toBe(651);
      expect(heads).toEqual([700, 800, 900, 1000]);
    } finally {
      await store.close();
    }
  });
});

describe('older snapshots in use', () => {
  test('recovery falls back through them; dump --at and past states from one equal a full replay', { timeout: HEAVY_TEST_MS }, async ({ tempDir }) => {
    const dir = tempDir('spread-live');
    const h = await harness({ SNAPSHOT_EVERY: '10' }, dir);
    for (const name of ['a', 'b']) {
      await ok(h, 'POST', F, { name });
      await ok(h, 'POST', `${F}/${name}/environments/development/strategies`, { name: 'default' });
    }
    // The flags as the live state had them after each record.
    const seen = new Map<number, string>();
    for (let i = 0; i < 150; i += 1) {
      await ok(h, 'POST', `${F}/${i % 3 === 0 ? 'b' : 'a'}/environments/development/${i % 2 === 0 ? 'on' : 'off'}`);
      const actor = h.registry.project('default')!;
      seen.set(actor.seq, JSON.stringify([...actor.state.flags.values()]));
    }
    const expected = stableStringify(dumpRegistry(h.registry)!);
    await h.registry.close();

    const { heads } = await (async () => {
      const store = await LevelStore.open(dir);
      try {
        return await snapshotKeys(store);
      } finally {
        await store.close();
      }
    })();
    expect(heads.length).toBeGreaterThan(2);
    expect(heads.length).toBeLessThanOrEqual(10);
    const older = heads.find((s) => s > 20 && s < heads.at(-2)!)!;
    expect(older).toBeDefined();

    // Reference: the same data with no snapshot at all, so `--at` replays the log from its first record.
    const bare = tempDir('spread-bare');
    cpSync(dir, bare, { recursive: true });
    await edit(bare, async (db) => {
      for await (const key of db.keys({ gte: keys.snapshotPrefix(SCOPE), lt: `${keys.snapshotPrefix(SCOPE)}\xff` })) await db.del(key);
    });
    const replayed = await dumpCli(['--data-dir', bare, '--project', 'default', '--at', String(older + 3)]);
    expect(replayed.code, replayed.stderr).toBe(0);

    // A damaged record before the older snapshot: a read that starts from that snapshot never meets it.
    let record3 = '';
    await edit(dir, async (db) => {
      record3 = (await db.get(keys.log(SCOPE, 3)))!;
      await db.put(keys.log(SCOPE, 3), 'garbage');
    });
    expect((await dumpCli(['--data-dir', dir, '--project', 'default', '--at', '5'])).code).toBe(1);
    const fromSnapshot = await dumpCli(['--data-dir', dir, '--project', 'default', '--at', String(older + 3)]);
    expect(fromSnapshot.code, fromSnapshot.stderr).toBe(0);
    expect(fromSnapshot.stdout).toBe(replayed.stdout);
    const store = await LevelStore.open(dir);
    try {
      const states = new PastStates(store, projectModel('default'), new PastCheckpoints(), { interval: 4, most: 100 });
      for (const seq of [older + 3, older, heads.at(-2)! + 1]) {
        const state = await states.stateAt(seq, 1);
        expect('flags' in state && JSON.stringify([...state.flags.values()]), `seq ${seq}`).toBe(seen.get(seq));
      }
    } finally {
      await store.close();
    }
    await edit(dir, async (db) => db.put(keys.log(SCOPE, 3), record3));

    // The two newest heads damaged: recovery falls back to the next older one, and replays the rest of the log.
    const [newest, second] = [heads.at(-1)!, heads.at(-2)!].map((s) => keys.snapshotHead(SCOPE, s));
    await edit(dir, async (db) => {
      for (const head of [newest!, second!]) await db.put(head, `${(await db.get(head))!.slice(0, -3)}xx}`);
    });
    const registry = await Registry.open({ dataDir: dir, initEnvironments: ['development'] });
    try {
      expect(registry.notices.map((n) => n.key)).toEqual([newest, second]);
      expect(registry.project('default')!.seq).toBe(Math.max(...seen.keys()));
      expect(stableStringify(dumpRegistry(registry)!)).toBe(expected);
    } finally {
      await registry.close();
    }
  });
});

/** Edits the stored values of a stopped data directory, as damage on disk would. */
async function edit(dir: string, change: (db: Level<string, string>) => Promise<void>): Promise<void> {
  const db = new Level<string, string>(dir, { valueEncoding: 'utf8' });
  await db.open();
  try {
    await change(db);
  } finally {
    await db.close();
  }
}
