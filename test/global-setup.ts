/**
 * vitest global setup: builds dist/ (the tests of the `flagpole` command run the bundled bin, as an operator
 * does) and, at the same time, starts the tests' PostgreSQL (`helpers/postgres.ts`), unless
 * `FLAGPOLE_TEST_DATABASE_URL` points the suite at a server already running, and the browser files' chromium
 * (`console/browser/chromium-server.ts`). Their addresses reach the tests through `inject('databaseUrl')` and
 * `inject('chromiumEndpoint')`; both are stopped at the end (the server's files removed).
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { startChromium } from './console/browser/chromium-server.js';
import { startPostgres } from './helpers/postgres-server.js';

/** What one run's setup made, shared by the projects (`leveldb`, `postgres`) that each call {@link setup}. */
interface Shared {
  ready: Promise<{ url: string; chromium: string; stop: () => Promise<void> }>;
  users: number;
}

const shared = globalThis as { flagpoleTestSetup?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The tests' temporary directory (a RAM disk when vitest.config.ts found one) holds the server's files too.
  shared.flagpoleTestSetup ??= { ready: buildAndStart(project.config.env?.['TMPDIR']), users: 0 };
  const run = shared.flagpoleTestSetup;
  run.users += 1;
  const { url, chromium, stop } = await run.ready;
  project.provide('databaseUrl', url);
  project.provide('chromiumEndpoint', chromium);
  return async () => {
    run.users -= 1;
    if (run.users === 0) {
      delete shared.flagpoleTestSetup;
      await stop();
    }
  };
}

async function buildAndStart(baseDir: string | undefined): Promise<{ url: string; chromium: string; stop: () => Promise<void> }> {
  const root = resolve(import.meta.dirname, '..');
  const started = performance.now();
  const given = process.env['FLAGPOLE_TEST_DATABASE_URL'];
  // The build `prepare` runs (scripts/build-if-possible.mjs): tsc, the static files, then the bundle.
  const build = promisify(execFile)(process.execPath, [resolve(root, 'scripts/build-if-possible.mjs')], { cwd: root });
  const [built, server, browser] = await Promise.all([build, given ? null : startPostgres(baseDir), startChromium()]);
  if (built.stderr) process.stderr.write(built.stderr);
  if (process.env['FLAGPOLE_TEST_SETUP_TIMING']) process.stderr.write(`global setup: build, PostgreSQL and chromium ready in ${Math.round(performance.now() - started)} ms\n`);
  return { url: given ?? server!.url, chromium: browser.endpoint, stop: async () => { await Promise.all([server?.stop(), browser.stop()]); } };
}
