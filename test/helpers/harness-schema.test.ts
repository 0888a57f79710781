/**
 * The schemas harnesses reuse on PostgreSQL (`harnessSchema`, test/helpers/postgres.ts): once its harness is
 * closed, a schema is as a new one is after the store migrated it (same tables, columns, indexes, constraints
 * and rows), and the next harness of the worker gets it; one a test reshaped is dropped instead.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, tablesOf } from '../../snapshots/pg/pg-schema.js';
import { harness } from './harness.js';
import { freshSchema, testDatabaseUrl } from './postgres.js';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

/** Everything in `schema` a test could tell apart: its relations' columns, indexes, constraints, and every table's rows. */
async function contents(schema: string): Promise<Record<string, unknown>> {
  const columns = await client.query(
    `SELECT table_name, column_name, data_type, collation_name, is_nullable, column_default, ordinal_position
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`, [schema]);
  const indexes = await client.query(
    `SELECT indexname, replace(indexdef, $1 || '.', '') AS def FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`, [schema]);
  const constraints = await client.query(
    `SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) AS def FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
      WHERE c.relnamespace = $1::regnamespace ORDER BY c.relname, k.conname`, [schema]);
  const relations = await client.query(
    `SELECT relname, relkind::text FROM pg_class WHERE relnamespace = $1::regnamespace ORDER BY relname`, [schema]);
  const rows: Record<string, unknown[]> = {};
  for (const { relname, relkind } of relations.rows) {
    if (relkind === 'r') rows[relname] = (await client.query(`SELECT * FROM "${schema}"."${relname}" ORDER BY 1`)).rows;
  }
  return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows, relations: relations.rows, rows };
}

test('a closed harness leaves its schema as a migrated new one, and the next harness gets it', async () => {
  // What the migrations make of a new schema.
  const fresh = freshSchema();
  await migrate(client, tablesOf(fresh.database.schema));
  const made = await contents(fresh.database.schema);
  await fresh.drop();

  const first = await harness({}, undefined, { store: 'postgres' });
  const schema = first.config.database!.schema;
  expect((await first.json('POST', '/api/admin/projects/default/features', { name: 'reused-schema' })).status).toBe(201);
  await first.registry.budget('reused-schema', { perWindow: 5, windowMs: 60_000, maxKeys: 10 }).take('key', 1);
  const written = await contents(schema);
  // It held records, keys, a counter past 0 and a budget: a reset that left any of it would show below.
  expect(written).not.toEqual(made);
  const counts = written['rows'] as Record<string, unknown[]>;
  for (const table of ['flagpole_log', 'flagpole_kv', 'flagpole_budget']) expect(counts[table]!.length).toBeGreaterThan(0);
  await first.close();

  expect(await contents(schema)).toEqual(made);
  const second = await harness({}, undefined, { store: 'postgres' });
  try {
    expect(second.config.database!.schema).toBe(schema);
    const features = await second.json('GET', '/api/admin/projects/default/features');
    expect(features.body.features).toEqual([]);
  } finally {
    await second.close();
  }
});

test.each([
  ['a table added', (schema: string) => `CREATE TABLE "${schema}".extra (x integer)`],
  ['a column added', (schema: string) => `ALTER TABLE "${schema}".flagpole_kv ADD COLUMN extra integer`],
  ['an index dropped', (schema: string) => `DROP INDEX "${schema}".flagpole_budget_ends`],
])('a schema a test reshaped (%s) is dropped, not reused', async (_, reshape) => {
  const first = await harness({}, undefined, { store: 'postgres' });
  const schema = first.config.database!.schema;
  await client.query(reshape(schema));
  await first.close();
  expect((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount).toBe(0);
  const second = await harness({}, undefined, { store: 'postgres' });
  try {
    expect(second.config.database!.schema).not.toBe(schema);
  } finally {
    await second.close();
  }
});
