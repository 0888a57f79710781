/**
 * What the PostgreSQL store does beyond the contract both stores keep (store-contract.test.ts): the channel
 * told of every append, the node lock (shared by nodes, alone for a tool), the schema version check, a connection broken in the middle of a
 * write (its outcome found out before the caller is answered), commits checked against the basis they were decided on,
 * and credentials kept out of every message.
 */
import pg from 'pg';
import { expect, onTestFinished, test } from 'vitest';
import { keys } from '../../snapshots/keys.js';
import { DatabaseInUseError } from '../../snapshots/pg/pg-connection.js';
import { outcomeOf } from '../../snapshots/pg/pg-outcome.js';
import { clientConfigOf } from '../../snapshots/pg/pg-options.js';
import { SCHEMA_VERSION, SchemaTooNewError } from '../../snapshots/pg/pg-schema.js';
import { PgStore } from '../../snapshots/pg/pg-store.js';
import { StaleBasisError, StoreUnavailableError, type BatchOp } from '../../snapshots/store.js';
import { freshSchema, testDatabaseUrl, type TestSchema } from '../helpers/postgres.js';

/** A fresh schema and a store over it, closed and dropped after the test. */
async function opened(): Promise<{ store: PgStore; schema: TestSchema; admin: pg.Client }> {
  const schema = freshSchema();
  const store = await PgStore.open(schema.database, { probeMs: 20 });
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  onTestFinished(async () => {
    await admin.end();
    await store.close();
    await schema.drop();
  });
  return { store, schema, admin };
}

test('every commit that appends records tells the channel its last rev', async () => {
  const { store, admin } = await opened();
  await admin.query(`LISTEN "${store.tables.channel}"`);
  const told: string[] = [];
  admin.on('notification', (n) => told.push(n.payload ?? ''));
  await store.commit([{ type: 'put', key: keys.log('service', 1), value: 'a' }, { type: 'put', key: keys.log('service', 2), value: 'b' }]);
  await store.commit([{ type: 'put', key: 'reg/x', value: 'x' }]);
  await store.commit([{ type: 'put', key: keys.log({ project: 'p' }, 1), value: 'c' }]);
  await expect.poll(() => told).toEqual(['2', '3']);
});

test('nodes open a database together; an offline tool is refused while one runs, and a node waits while a tool works', async () => {
  const { schema } = await opened();
  const second = await PgStore.open(schema.database, { lockWaitMs: 200 });
  await second.close();
  const error = await PgStore.open(schema.database, { lockWaitMs: 200, alone: true }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DatabaseInUseError);
  expect((error as Error).message).toMatch(/flagpole is running on the database postgres:\/\/127\.0\.0\.1:\d+\/postgres \(schema t_\w+\): stop every node first/);
  expect((error as Error).message).not.toContain(new URL(testDatabaseUrl()).password);
});

test('a node is refused while an offline tool holds the database', async () => {
  const schema = freshSchema();
  onTestFinished(() => schema.drop());
  const tool = await PgStore.open(schema.database, { alone: true });
  onTestFinished(() => tool.close());
  const error = await PgStore.open(schema.database, { lockWaitMs: 200 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DatabaseInUseError);
  expect((error as Error).message).toMatch(/an offline flagpole tool .* is working on the database/);
});

test('a schema migrated by newer code is refused with a message that says what to do', async () => {
  const schema = freshSchema();
  onTestFinished(() => schema.drop());
  await (await PgStore.open(schema.database)).close();
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  onTestFinished(() => admin.end());
  await admin.query(`UPDATE "${schema.database.schema}".flagpole_schema SET version = 99`);
  const error = await PgStore.open(schema.database).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SchemaTooNewError);
  expect((error as Error).message).toMatch(new RegExp(`is at version 99, newer than this flagpole knows \\(${SCHEMA_VERSION}\\).*Run that version`));
});

test('a write whose connection breaks while it waits is found not committed before its caller is answered', async () => {
  const { store, schema, admin } = await opened();
  await store.commit([{ type: 'put', key: keys.log('service', 1), value: 'one' }]);
  // Another transaction holds the counter row: the write waits on it, sent and not committed.
  const holder = new pg.Client({ connectionString: testDatabaseUrl() });
  await holder.connect();
  onTestFinished(() => holder.end());
  await holder.query('BEGIN');
  await holder.query(`SELECT rev FROM "${schema.database.schema}".flagpole_counter FOR UPDATE`);
  let settled = false;
  const write = store.commit([{ type: 'put', key: keys.log('service', 2), value: 'two' }, { type: 'put', key: 'reg/b', value: 'b' }]);
  void write.then(() => { settled = true; }, () => { settled = true; });
  const waiting = async () => (await admin.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'flagpole' AND wait_event_type = 'Lock'`)).rows as { pid: number }[];
  await expect.poll(async () => (await waiting()).length).toBe(1);
  await admin.query('SELECT pg_terminate_backend($1)', [(await waiting())[0]!.pid]);
  await expect(write).rejects.toThrow(/which was not committed/);
  expect(settled).toBe(true);
  await holder.query('ROLLBACK');
  expect(await store.get(keys.log('service', 2))).toBeUndefined();
  expect(await store.get('reg/b')).toBeUndefined();
  // The next write goes through on a new connection.
  expect((await store.commit([{ type: 'put', key: keys.log('service', 2), value: 'two' }])).revs).toEqual([2]);
});

test('the outcome of a write is read from its witness record once its backend is gone', async () => {
  const { store, schema } = await opened();
  await store.commit([{ type: 'put', key: keys.log('service', 1), value: 'one' }]);
  const config = clientConfigOf(schema.database);
  const gone = { pid: 0, started: '' };
  expect(await outcomeOf(config, store.tables, { backend: gone, witness: { scope: 'svc', seq: 1, record: 'one' } }, 10, () => false)).toBe(true);
  expect(await outcomeOf(config, store.tables, { backend: gone, witness: { scope: 'svc', seq: 1, record: 'another' } }, 10, () => false)).toBe(false);
  expect(await outcomeOf(config, store.tables, { backend: gone, witness: { scope: 'svc', seq: 2, record: 'two' } }, 10, () => false)).toBe(false);
});

test('a database that cannot be reached or refuses the password is a StoreUnavailableError without the credentials', async () => {
  const url = new URL(testDatabaseUrl());
  const wrong = `postgres://flagpole:not-the-password-1234@${url.host}/postgres`;
  const refused = await PgStore.open({ url: wrong, schema: 'public', poolSize: 1, statementTimeoutMs: 1000 }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(StoreUnavailableError);
  expect((refused as Error).message).toMatch(/^PostgreSQL: cannot open the database: password authentication failed/);
  expect((refused as Error).message).not.toContain('not-the-password-1234');
  const closed = await PgStore.open({ url: 'postgres://u:secret-pass@127.0.0.1:1/db', schema: 'public', poolSize: 1, statementTimeoutMs: 1000 }).catch((e: unknown) => e);
  expect(closed).toBeInstanceOf(StoreUnavailableError);
  expect((closed as Error).message).toMatch(/ECONNREFUSED/);
  expect((closed as Error).message).not.toContain('secret-pass');
});

test('a database not encoded in UTF-8 is refused at open, saying what to create instead', async () => {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  const name = `ascii_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${name} ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`);
  onTestFinished(async () => {
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  });
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  const error = await PgStore.open({ url: url.href, schema: 'public', poolSize: 1, statementTimeoutMs: 5000 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect((error as Error).message).toMatch(/is encoded SQL_ASCII; flagpole needs UTF8/);
});

const append = (scope: 'service' | string, seq: number, value: string): BatchOp => ({ type: 'put', key: keys.log(scope === 'service' ? 'service' : { project: scope }, seq), value });

test('a commit decided on a basis is written while no other node committed after it, and refused with nothing written once one did', async () => {
  const { store, schema } = await opened();
  const other = await PgStore.open(schema.database);
  onTestFinished(() => other.close());
  expect((await store.commit([append('service', 1, 'a')], { basis: 0 })).revs).toEqual([1]);
  // This node's own later revs do not stale a basis decided before them.
  expect((await store.commit([append('p', 1, 'b')])).revs).toEqual([2]);
  expect((await store.commit([append('service', 2, 'c')], { basis: 1 })).revs).toEqual([3]);

  // Another node commits, in another scope: a basis before its record is refused, with ops or without; the rest of the group is written.
  expect((await other.commit([append('q', 1, 'd')])).revs).toEqual([4]);
  const [stale, empty, plain] = await Promise.allSettled([
    store.commit([append('service', 3, 'e'), { type: 'put', key: 'reg/lost', value: 'x' }], { basis: 3 }),
    store.commit([], { basis: 3 }),
    store.commit([append('p', 2, 'f')]),
  ]);
  expect((stale as PromiseRejectedResult).reason).toBeInstanceOf(StaleBasisError);
  expect((empty as PromiseRejectedResult).reason).toBeInstanceOf(StaleBasisError);
  expect((plain as PromiseFulfilledResult<{ revs: number[] }>).value.revs).toEqual([5]);
  expect(await store.get(keys.log('service', 3))).toBeUndefined();
  expect(await store.get('reg/lost')).toBeUndefined();

  // Caught up past it, the basis holds again; so does one past this node's last write (it applied another node's).
  expect((await store.commit([append('service', 3, 'e')], { basis: 5 })).revs).toEqual([6]);
  expect((await store.commit([], { basis: 6 })).revs).toEqual([]);
  expect((await other.commit([append('q', 2, 'g')])).revs).toEqual([7]);
  expect((await store.commit([append('service', 4, 'h')], { basis: 7 })).revs).toEqual([8]);

  // A write without a basis after another node's record: a basis before that record is refused, one at it holds.
  expect((await other.commit([append('q', 3, 'i')])).revs).toEqual([9]);
  expect((await store.commit([append('p', 3, 'j')])).revs).toEqual([10]);
  await expect(store.commit([append('service', 5, 'k')], { basis: 8 })).rejects.toBeInstanceOf(StaleBasisError);
  expect((await store.commit([append('service', 5, 'k')], { basis: 9 })).revs).toEqual([11]);
  expect(await store.get(keys.log('service', 5))).toBe('k');
});

test('a conditional commit waiting on the counter another writer updates is refused when that one commits, written when it rolls back', async () => {
  const { store, schema, admin } = await opened();
  expect((await store.commit([append('service', 1, 'a')])).revs).toEqual([1]);
  const holder = new pg.Client({ connectionString: testDatabaseUrl() });
  await holder.connect();
  onTestFinished(() => holder.end());
  const counter = `"${schema.database.schema}".flagpole_counter`;
  const waiting = async () => (await admin.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'flagpole' AND wait_event_type = 'Lock'`)).rows.length;
  for (const end of ['COMMIT', 'ROLLBACK'] as const) {
    // Another node in the middle of its commit: the counter row is updated, not committed yet.
    await holder.query('BEGIN');
    await holder.query(`UPDATE ${counter} SET rev = rev + 1 WHERE id = 1`);
    const head = Number((await admin.query(`SELECT rev FROM ${counter}`)).rows[0].rev);
    const write = store.commit([append('service', 2, end)], { basis: head });
    void write.catch(() => undefined);
    await expect.poll(waiting).toBe(1);
    await holder.query(end);
    if (end === 'COMMIT') await expect(write).rejects.toBeInstanceOf(StaleBasisError);
    else expect((await write).revs).toEqual([head + 1]);
  }
  expect(await store.get(keys.log('service', 2))).toBe('ROLLBACK');
});

test('the group commit keeps one plan of its write: a large, analyzed log does not make every write planned anew', async () => {
  const { store, admin, schema } = await opened();
  const log = Array.from({ length: 20_000 }, (_, i) => append(`p${i % 7}`, Math.floor(i / 7) + 1, 'r'.repeat(100)));
  await store.writeInSlices(log, { sync: false, slice: 2_000 });
  await admin.query(`ANALYZE "${schema.database.schema}".flagpole_log`);
  for (let seq = 1; seq <= 12; seq += 1) await store.commit([append('service', seq, 'x'), { type: 'put', key: `reg/${seq}`, value: 'y' }]);
  // The writer's own connection (private to the store: reached for, not replaced) says how its statement was planned.
  const writer = (store as unknown as { commits: { session: { client: pg.Client } } }).commits.session.client;
  const { rows } = await writer.query<{ generic: string; custom: string }>(`SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = 'flagpole_write'`);
  expect(rows[0]).toEqual({ generic: '12', custom: '0' });
});
