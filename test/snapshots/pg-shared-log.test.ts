/**
 * The shared log of the PostgreSQL store, with two stores open on one database as two nodes have them: the
 * global order by rev, the notification of each commit, locks across nodes and a lease held by one node.
 */
import pg from 'pg';
import { expect, onTestFinished, test } from 'vitest';
import { keys } from '../../snapshots/keys.js';
import { PgStore } from '../../snapshots/pg/pg-store.js';
import { freshSchema, testDatabaseUrl } from '../helpers/postgres.js';

/** Two stores over one fresh schema, closed (and the schema dropped) after the test. */
async function twoNodes(): Promise<[PgStore, PgStore]> {
  const schema = freshSchema();
  const a = await PgStore.open(schema.database, { probeMs: 20 });
  const b = await PgStore.open(schema.database, { probeMs: 20 });
  onTestFinished(async () => {
    await a.close();
    await b.close();
    await schema.drop();
  });
  return [a, b];
}

/** How many advisory locks a connection waits for now: a caller that waits on another node's lock shows here. */
async function waitingLocks(): Promise<number> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>("SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
    return Number(rows[0]!.n);
  } finally {
    await admin.end();
  }
}

const append = (project: string, seq: number, record: string) => ({ type: 'put' as const, key: keys.log({ project }, seq), value: record });

test('two stores open on one database; what one appends, the other reads in the global order and is told of', async () => {
  const [a, b] = await twoNodes();
  const told: (number | null)[] = [];
  b.shared.listen((rev) => told.push(rev));
  await expect.poll(() => told).toEqual([null]);
  expect((await a.commit([append('p', 1, 'one'), append('q', 1, 'two')])).revs).toEqual([1, 2]);
  expect((await b.commit([append('p', 2, 'three')])).revs).toEqual([3]);
  await expect.poll(() => told).toEqual([null, 2, 3]);
  expect(await a.shared.head()).toBe(3);
  expect(await b.shared.since(0, { limit: 10 })).toEqual([
    { rev: 1, scope: 'p/p', seq: 1, record: 'one' },
    { rev: 2, scope: 'p/q', seq: 1, record: 'two' },
    { rev: 3, scope: 'p/p', seq: 2, record: 'three' },
  ]);
  expect((await a.shared.since(1, { upTo: 2, limit: 10 })).map((row) => row.rev)).toEqual([2]);
  // The other node appending a taken place is a conflict, not an overwrite.
  await expect(b.commit([append('q', 1, 'again')])).rejects.toMatchObject({ name: 'LogConflictError', scope: 'p/q', seq: 1 });
});

test('the shared log is read in the order of the revs as numbers, past 9 and 99 (not as their text)', async () => {
  const [a, b] = await twoNodes();
  await a.commit(Array.from({ length: 120 }, (_, i) => append('p', i + 1, `r${i + 1}`)));
  const read = await b.shared.since(5, { upTo: 115, limit: 500 });
  expect(read.map((row) => row.rev)).toEqual(Array.from({ length: 110 }, (_, i) => i + 6));
  expect((await b.shared.since(0, { limit: 12 })).map((row) => row.rev)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
});

test('an exclusive lock is held by one node at a time; shared holders together, then the exclusive one', async () => {
  const [a, b] = await twoNodes();
  const order: string[] = [];
  const first = await a.shared.lock('access');
  order.push('a');
  const second = b.shared.lock('access').then((held) => { order.push('b'); return held; });
  // b waits in the database for a's lock, and gets it only once a lets go.
  await expect.poll(waitingLocks).toBe(1);
  await first.release();
  await (await second).release();
  expect(order).toEqual(['a', 'b']);
  // Two shared holders on one node together; the other node's exclusive caller waits in the database for both.
  const readers = await Promise.all([a.shared.lock('segments', 'shared'), a.shared.lock('segments', 'shared')]);
  let writerIn = false;
  const writer = b.shared.lock('segments', 'exclusive').then((held) => { writerIn = true; return held; });
  await expect.poll(waitingLocks).toBe(1);
  await readers[0]!.release();
  expect(await waitingLocks()).toBe(1);
  expect(writerIn).toBe(false);
  await readers[1]!.release();
  await (await writer).release();
  expect(writerIn).toBe(true);
});

test('a lease is held by one node; when that node closes, the other takes it over', async () => {
  const [a, b] = await twoNodes();
  const leaseA = a.shared.lease('snapshots');
  await expect.poll(() => leaseA.held).toBe(true);
  const leaseB = b.shared.lease('snapshots');
  const changes: boolean[] = [];
  leaseB.onChange((held) => changes.push(held));
  await leaseA.close();
  await expect.poll(() => leaseB.held, { timeout: 10_000 }).toBe(true);
  expect(changes).toEqual([true]);
});

test('a budget is one count on every node: charges at once never pass it, a give-back returns to its own window only', async () => {
  const [a, b] = await twoNodes();
  const charges = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).shared.charge('sign-in:x', 1, 10, 60_000)));
  const taken = charges.filter((c) => c.taken);
  expect(taken).toHaveLength(10);
  expect(new Set(taken.map((c) => (c.taken ? c.window : 0))).size).toBe(1);
  for (const refused of charges.filter((c) => !c.taken)) expect(refused.taken ? 0 : refused.waitMs).toBeGreaterThan(0);
  // One given back on the other node: one more is taken, then none.
  await b.shared.giveBack('sign-in:x', 1, taken[0]!.taken ? taken[0]!.window : 0);
  expect((await a.shared.charge('sign-in:x', 1, 10, 60_000)).taken).toBe(true);
  expect((await b.shared.charge('sign-in:x', 1, 10, 60_000)).taken).toBe(false);
  // A give-back against another window (one that ended) gives nothing back; other keys have budgets of their own.
  await a.shared.giveBack('sign-in:x', 5, 1);
  expect((await a.shared.charge('sign-in:x', 1, 10, 60_000)).taken).toBe(false);
  expect((await a.shared.charge('sign-in:y', 1, 10, 60_000)).taken).toBe(true);
  // A window that has ended starts afresh.
  expect((await a.shared.charge('short', 2, 2, 50)).taken).toBe(true);
  expect((await b.shared.charge('short', 1, 2, 50)).taken).toBe(false);
  await expect.poll(async () => (await b.shared.charge('short', 1, 2, 50)).taken).toBe(true);
});

test('a signal reaches every node, the sender too; a key is replaced only while it exists', async () => {
  const [a, b] = await twoNodes();
  const heard: Record<string, unknown[]> = { a: [], b: [] };
  a.shared.onSignal((signal) => heard['a']!.push(signal));
  b.shared.onSignal((signal) => heard['b']!.push(signal));
  await expect.poll(() => [heard['a']!.length, heard['b']!.length]).toEqual([1, 1]);
  await a.shared.signal('sessions', 'ended one\ntwo');
  const sent = { topic: 'sessions', message: 'ended one\ntwo' };
  await expect.poll(() => heard).toEqual({ a: [null, sent], b: [null, sent] });
  await expect(a.shared.signal('bad\ntopic', '')).rejects.toThrow(RangeError);
  await expect(a.shared.signal('big', 'x'.repeat(8000))).rejects.toThrow(RangeError);

  await a.commit([{ type: 'put', key: 'ses/h', value: 'one' }]);
  await b.shared.replaceExisting('ses/h', 'two');
  expect(await a.get('ses/h')).toBe('two');
  await a.commit([{ type: 'del', key: 'ses/h' }]);
  await b.shared.replaceExisting('ses/h', 'three');
  expect(await a.get('ses/h')).toBeUndefined();
});

test('a transaction reads and writes under its lock: two nodes adding to one key at once both count; a failed one writes nothing', async () => {
  const [a, b] = await twoNodes();
  const add = (store: PgStore, n: number, inside?: { entered: () => void; held: Promise<void> }) => store.shared.transact('counter', async (tx) => {
    const before = Number(await tx.get('cnt') ?? '0');
    inside?.entered();
    await inside?.held;
    return { ops: [{ type: 'put' as const, key: 'cnt', value: String(before + n) }], result: before };
  }, { sync: true });
  // a reads 0 and holds its transaction open until b waits on the lock: b then reads what a wrote.
  let letGo!: () => void;
  let entered!: () => void;
  const held = new Promise<void>((resolve) => { letGo = resolve; });
  const inside = new Promise<void>((resolve) => { entered = resolve; });
  const first = add(a, 5, { entered, held });
  await inside;
  const second = add(b, 7);
  await expect.poll(() => waitingLocks()).toBe(1);
  letGo();
  expect(await first).toBe(0);
  expect(await second).toBe(5);
  expect(await a.get('cnt')).toBe('12');
  // A transaction whose work throws rejects with that error and writes nothing; its entries read the same range as the store.
  await a.commit([{ type: 'put', key: 'r/1', value: 'x' }, { type: 'put', key: 'r/2', value: 'y' }]);
  await expect(b.shared.transact('counter', async (tx) => {
    const seen: string[] = [];
    for await (const [key] of tx.entries('r/')) seen.push(key);
    expect(seen).toEqual(['r/1', 'r/2']);
    throw new RangeError('refused by the work');
  }, { sync: false }).then(() => undefined)).rejects.toThrow(RangeError);
  await expect(a.shared.transact('counter', async () => ({ ops: [{ type: 'put', key: 'cnt', value: '0' }], result: null }), { sync: false })).resolves.toBeNull();
  expect(await b.get('cnt')).toBe('0');
});

test("a scope's turn is held by one node at a time, granted with the head read after the grant; other scopes' turns are apart", async () => {
  const [a, b] = await twoNodes();
  await a.commit([append('p', 1, 'one')]);
  const first = await a.shared.turn('p/p');
  expect(first.head).toBe(1);
  // Another scope's turn is not held up by it.
  const other = await b.shared.turn('p/q');
  await other.release();
  let granted: { head: number; release(): Promise<void> } | null = null;
  const second = b.shared.turn('p/p').then((turn) => { granted = turn; return turn; });
  await expect.poll(waitingLocks).toBe(1);
  // Appended in the first turn, before it is released: the second turn's head, read once granted, holds it.
  await a.commit([append('p', 2, 'two')]);
  expect(granted).toBeNull();
  await first.release();
  expect((await second).head).toBe(2);
  await (await second).release();
  expect(await waitingLocks()).toBe(0);
});
