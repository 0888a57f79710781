/**
 * vitest global setup: builds dist/ (the tests of the `flagpole` command run the bundled bin, as an operator
 * does) and, at the same time, starts the tests' PostgreSQL (`helpers/postgres.ts`), unless
 * `FLAGPOLE_TEST_DATABASE_URL` points the suite at a server already running, and the browser files' chromium
 * (`console/browser/chromium-server.ts`). Their addresses reach the tests through `inject('databaseUrl')` and
 * `inject('chromiumEndpoint')`; both are stopped at the end (the server's files removed). `inject('schemaTag')`
 * marks the schemas harnesses reuse (`helpers/postgres.ts`): on a server the run did not start, they are dropped at the end.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startChromium } from './console/browser/chromium-server.js';
import { startPostgres } from './helpers/postgres-server.js';

/** What one run's setup made, shared by the projects (`leveldb`, `postgres`) that each call {@link setup}. */
interface Shared {
  ready: Promise<{ url: string; schemaTag: string; chromium: string; stop: () => Promise<void> }>;
  users: number;
}

const shared = globalThis as { flagpoleTestSetup?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The tests' temporary directory (a RAM disk when vitest.config.ts found one) holds the server's files too.
  shared.flagpoleTestSetup ??= { ready: buildAndStart(project.config.env?.['TMPDIR']), users: 0 };
  const run = shared.flagpoleTestSetup;
  run.users += 1;
  const { url, schemaTag, chromium, stop } = await run.ready;
  project.provide('databaseUrl', url);
  project.provide('schemaTag', schemaTag);
  project.provide('chromiumEndpoint', chromium);
  return async () => {
    run.users -= 1;
    if (run.users === 0) {
      delete shared.flagpoleTestSetup;
      await stop();
    }
  };
}

async function buildAndStart(baseDir: string | undefined): Promise<{ url: string; schemaTag: string; chromium: string; stop: () => Promise<void> }> {
  const root = resolve(import.meta.dirname, '..');
  const started = performance.now();
  const given = process.env['FLAGPOLE_TEST_DATABASE_URL'];
  // The build `prepare` runs (scripts/build-if-possible.mjs): tsc, the static files, then the bundle.
  const build = promisify(execFile)(process.execPath, [resolve(root, 'scripts/build-if-possible.mjs')], { cwd: root });
  const [built, server, browser] = await Promise.all([build, given ? null : startPostgres(baseDir), startChromium()]);
  if (built.stderr) process.stderr.write(built.stderr);
  if (process.env['FLAGPOLE_TEST_SETUP_TIMING']) process.stderr.write(`global setup: build, PostgreSQL and chromium ready in ${Math.round(performance.now() - started)} ms\n`);
  const schemaTag = randomBytes(4).toString('hex');
  // The schemas harnesses reused stay until the end of the run: on a server of one's own choosing, dropped then.
  const dropReused = async () => {
    if (given) await dropSchemasTagged(given, schemaTag);
  };
  return { url: given ?? server!.url, schemaTag, chromium: browser.endpoint, stop: async () => { await Promise.all([server?.stop(), dropReused(), browser.stop()]); } };
}

/** Drops the schemas whose names carry `tag` (`reusableSchemaName` in helpers/postgres.ts). */
async function dropSchemasTagged(url: string, tag: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname ~ $1`, [`^[hr]_${tag}_`]);
    for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await client.end();
  }
}
