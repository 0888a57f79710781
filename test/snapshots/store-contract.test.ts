/**
 * The store contract (`snapshots/store.ts`), one suite run against both stores: LevelDB in a fresh data
 * directory and PostgreSQL in a fresh schema of the tests' server. What the actors, recovery and the tools
 * rely on holds on each: atomic commits, group commit, key order and ranges, log appends that never
 * overwrite, commits checked against the basis they were decided on, unsynced and sliced writes, and health
 * that reports failing writes and recovers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test as base } from 'vitest';
import { DiskFaults } from '../../snapshots/disk-faults.js';
import { keys, type Scope } from '../../snapshots/keys.js';
import { LevelStore } from '../../snapshots/level-store.js';
import { PgStore } from '../../snapshots/pg/pg-store.js';
import { LogConflictError, type BatchOp, type Store } from '../../snapshots/store.js';
import { freshSchema } from '../helpers/postgres.js';

interface Opened {
  store: Store;
  faults: DiskFaults;
  /** Closes the store and opens it again over the same data. */
  reopen(): Promise<Store>;
}

type Kind = 'leveldb' | 'postgres';

/** A store of `kind` over fresh data, with a fault gate; closed and removed after the test. */
const test = base.extend<{ kind: Kind; opened: Opened }>({
  kind: ['leveldb', { injected: true }],
  opened: async ({ kind }, use) => {
    const faults = new DiskFaults();
    const options = { gate: faults, probeMs: 20 };
    const dir = mkdtempSync(join(tmpdir(), 'flagpole-contract-'));
    const pgSchema = kind === 'postgres' ? freshSchema() : null;
    const open = (): Promise<Store> => (pgSchema ? PgStore.open(pgSchema.database, options) : LevelStore.open(dir, options));
    let store = await open();
    try {
      await use({ get store() { return store; }, faults, async reopen() { await store.close(); store = await open(); return store; } } as Opened);
    } finally {
      faults.heal();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      await pgSchema?.drop();
    }
  },
});

const put = (key: string, value: string): BatchOp => ({ type: 'put', key, value });
const del = (key: string): BatchOp => ({ type: 'del', key });
const SVC: Scope = 'service';
const P: Scope = { project: 'p1' };
const all = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe.each<Kind>(['leveldb', 'postgres'])('the %s store', (kind) => {
  test.override({ kind });

  test('a commit is atomic and durable: puts, deletes, log records, read back after a reopen', async ({ opened }) => {
    await opened.store.commit([put('reg/a', 'A'), put(keys.log(SVC, 1), 'r1'), put('ses/x', 'X')]);
    await opened.store.commit([del('ses/x'), put('reg/a', 'A2'), put(keys.log(SVC, 2), 'r2')]);
    const store = await opened.reopen();
    expect(await store.get('reg/a')).toBe('A2');
    expect(await store.get('ses/x')).toBeUndefined();
    expect(await store.get(keys.log(SVC, 2))).toBe('r2');
    expect(await all(store.entries(keys.logPrefix(SVC)))).toEqual([[keys.log(SVC, 1), 'r1'], [keys.log(SVC, 2), 'r2']]);
  });

  test('concurrent commits share writes (group commit), and each is answered', async ({ opened }) => {
    const before = opened.store.stats.batches;
    const commits = Array.from({ length: 60 }, (_, i) => opened.store.commit([put(keys.log(P, i + 1), `r${i + 1}`), put(`use/a/app${i}`, 'x')]));
    await Promise.all(commits);
    expect(opened.store.stats.batches - before).toBeLessThan(60);
    expect(await all(opened.store.keys(keys.logPrefix(P)))).toHaveLength(60);
    expect(await all(opened.store.keys(keys.usageAppsPrefix))).toHaveLength(60);
  });

  test('reads keep LevelDB key order: prefixes, reverse, gt, lte and limit, across many pages', async ({ opened }) => {
    const ops: BatchOp[] = [];
    for (let seq = 1; seq <= 300; seq += 1) ops.push(put(keys.log(P, seq), `r${seq}`));
    for (let i = 0; i < 300; i += 1) ops.push(put(keys.usageApp(`app ${String(i).padStart(3, '0')}/é`), `v${i}`));
    ops.push(put(keys.snapshotHead(P, 5), 'h5'), put(keys.snapshotChunk(P, 5, 0), 'c0'), put('reg/p1', 'R'), put(keys.log(SVC, 1), 's1'));
    await opened.store.writeInSlices(ops, { sync: true, slice: 100 });
    const store = opened.store;
    const log = await all(store.entries(keys.logPrefix(P)));
    expect(log.map(([k]) => k)).toEqual(Array.from({ length: 300 }, (_, i) => keys.log(P, i + 1)));
    expect(log[41]).toEqual([keys.log(P, 42), 'r42']);
    expect((await all(store.keys(keys.logPrefix(P), { reverse: true, limit: 3 })))).toEqual([keys.log(P, 300), keys.log(P, 299), keys.log(P, 298)]);
    expect((await all(store.entries(keys.logPrefix(P), { gt: keys.log(P, 297) }))).map(([, v]) => v)).toEqual(['r298', 'r299', 'r300']);
    expect((await all(store.entries(keys.logPrefix(P), { reverse: true, lte: keys.log(P, 150), limit: 200 }))).map(([, v]) => v)).toEqual(Array.from({ length: 150 }, (_, i) => `r${150 - i}`));
    const apps = await all(store.keys(keys.usageAppsPrefix));
    expect(apps).toHaveLength(300);
    expect(apps).toEqual([...apps].sort());
    expect(await all(store.keys(keys.usageAppsPrefix, { reverse: true, limit: 2 }))).toEqual([apps[299], apps[298]]);
    expect(await all(store.keys(keys.snapshotPrefix(P)))).toEqual([keys.snapshotChunk(P, 5, 0), keys.snapshotHead(P, 5)]);
    expect(await all(store.keys(keys.projectsPrefix))).toEqual(['reg/p1']);
    // A prefix that spans logs and other keys reads both, merged in key order.
    const everything = await all(store.keys(''));
    expect(everything).toHaveLength(ops.length);
    expect(everything).toEqual([...everything].sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b)))));
  });

  test('a log append at a taken position is refused to its caller alone; the rest of the group is written', async ({ opened }) => {
    await opened.store.commit([put(keys.log(SVC, 1), 'first')]);
    const [again, next, other] = await Promise.allSettled([
      opened.store.commit([put(keys.log(SVC, 1), 'second'), put('reg/lost', 'x')]),
      opened.store.commit([put(keys.log(SVC, 2), 'two')]),
      opened.store.commit([put(keys.log(P, 1), 'p'), put('reg/kept', 'y')]),
    ]);
    expect(again.status).toBe('rejected');
    expect((again as PromiseRejectedResult).reason).toBeInstanceOf(LogConflictError);
    expect((again as PromiseRejectedResult).reason).toMatchObject({ scope: 'svc', seq: 1 });
    expect([next.status, other.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(await opened.store.get(keys.log(SVC, 1))).toBe('first');
    expect(await opened.store.get('reg/lost')).toBeUndefined();
    expect(await opened.store.get('reg/kept')).toBe('y');
    expect(await opened.store.get(keys.log(SVC, 2))).toBe('two');
  });

  test('revs: PostgreSQL numbers every appended record in commit order; LevelDB keeps none', async ({ opened }) => {
    const first = await opened.store.commit([put(keys.log(SVC, 1), 'a'), put(keys.log(SVC, 2), 'b'), put('reg/x', 'x')]);
    const [one, two] = await Promise.all([opened.store.commit([put(keys.log(P, 1), 'c')]), opened.store.commit([put(keys.log(P, 2), 'd'), put(keys.log(SVC, 3), 'e')])]);
    const none = await opened.store.commit([put('reg/y', 'y')]);
    if (kind === 'leveldb') {
      expect([first.revs, one.revs, two.revs, none.revs]).toEqual([null, null, null, null]);
      return;
    }
    expect(first.revs).toEqual([1, 2]);
    expect([...one.revs!, ...two.revs!]).toEqual([3, 4, 5]);
    expect(none.revs).toEqual([]);
  });

  test('a commit decided on a basis no other writer moved past is written, with ops or without (PostgreSQL checks it, LevelDB has one writer)', async ({ opened }) => {
    const first = await opened.store.commit([put(keys.log(SVC, 1), 'a'), put('reg/a', 'A')], { basis: 0 });
    const head = kind === 'postgres' ? 1 : 0;
    expect(first.revs).toEqual(kind === 'postgres' ? [1] : null);
    await opened.store.commit([], { basis: head });
    expect((await opened.store.commit([put(keys.log(SVC, 2), 'b')], { basis: head })).revs).toEqual(kind === 'postgres' ? [2] : null);
    expect(await all(opened.store.entries(keys.logPrefix(SVC)))).toEqual([[keys.log(SVC, 1), 'a'], [keys.log(SVC, 2), 'b']]);
    expect(await opened.store.get('reg/a')).toBe('A');
  });

  test('unsynced writes are atomic and read back; a clean close keeps them', async ({ opened }) => {
    await opened.store.writeUnsynced([put(keys.snapshotChunk(SVC, 1, 0), 'c'), put('ses/a', 'A')]);
    await opened.store.writeUnsynced([del('ses/a')]);
    const store = await opened.reopen();
    expect(await store.get(keys.snapshotChunk(SVC, 1, 0))).toBe('c');
    expect(await store.get('ses/a')).toBeUndefined();
  });

  test('a write the store refuses rejects and records nothing; health says so, and recovers once writes go through', async ({ opened }) => {
    await opened.store.commit([put(keys.log(SVC, 1), 'kept')]);
    opened.faults.fail('EIO');
    await expect(opened.store.commit([put(keys.log(SVC, 2), 'lost'), put('reg/lost', 'x')])).rejects.toThrow();
    await expect(opened.store.writeUnsynced([put('ses/lost', 'x')])).rejects.toThrow();
    const failing = opened.store.writeHealth();
    expect(failing.failingSince).not.toBeNull();
    expect(failing.lastError).toBeTruthy();
    opened.faults.heal();
    await expect.poll(() => opened.store.writeHealth().failingSince).toBeNull();
    expect(await opened.store.get(keys.log(SVC, 2))).toBeUndefined();
    expect(await opened.store.get('reg/lost')).toBeUndefined();
    await opened.store.commit([put(keys.log(SVC, 2), 'after')]);
    expect(await all(opened.store.entries(keys.logPrefix(SVC)))).toEqual([[keys.log(SVC, 1), 'kept'], [keys.log(SVC, 2), 'after']]);
  });
});
