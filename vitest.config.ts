import { accessSync, constants, statfsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * A RAM disk for the tests' temporary directories (data directories included), when there is a roomy one
 * and no TMPDIR was chosen: every write is synced before its reply, and a sync to tmpfs costs nothing,
 * where one to a real disk costs a millisecond or more. The tests kill processes, never the machine, so
 * what they check does not depend on the page cache reaching a disk.
 */
function ramDisk(): string | undefined {
  if (process.env['TMPDIR']) return undefined;
  try {
    accessSync('/dev/shm', constants.W_OK);
    const fs = statfsSync('/dev/shm');
    // A container's default /dev/shm (64 MB) is too small for the install tests' node_modules.
    return fs.bavail * fs.bsize >= 2 * 1024 ** 3 ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}

const tmp = ramDisk();

/**
 * The HTTP tests that run a second time on PostgreSQL (project `postgres`: the harness opens a fresh schema
 * instead of a data directory, `test/helpers/harness.ts`): flags, toggles, strategies, history and past
 * views, dumps and backups, sessions, usage, group commit, storage faults, and change requests (their records
 * across restarts, the atomic apply, the scheduler). The store's own contract runs
 * on both stores inside `test/snapshots/store-contract.test.ts`.
 */
const ON_POSTGRES = [
  'test/http/features/create.test.ts',
  'test/http/features/read.test.ts',
  'test/http/features/update-patch.test.ts',
  'test/http/features/archive-revive-delete.test.ts',
  'test/http/features/lifecycle.test.ts',
  'test/http/toggles.test.ts',
  'test/http/strategies.test.ts',
  'test/http/projects-crud.test.ts',
  'test/http/restart.test.ts',
  'test/http/state-dump.test.ts',
  'test/http/backup.test.ts',
  'test/http/passwords.test.ts',
  'test/actors/session-store.test.ts',
  'test/http/usage/usage-store.test.ts',
  'test/http/usage/client-metrics-routes.test.ts',
  'test/queries/history/history-moments.test.ts',
  'test/snapshots/events.test.ts',
  'test/snapshots/group-commit.test.ts',
  'test/faults/disk-faults.test.ts',
  'test/http/change-requests/apply.test.ts',
  'test/http/change-requests/persistence.test.ts',
  'test/http/change-requests/schedule.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // expect.poll waits on a state, never a speed bound: as long as test/helpers/wait.ts STATE_TIMEOUT_MS
    // (vitest's default of 1 s failed cluster tests at a load average of 17).
    expect: { poll: { timeout: 60_000 } },
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker more than cores: a worker spends much of its time waiting on a child process (the CLI, the
    // service, HAProxy, chromium) or a socket, and another file's CPU fills that time.
    maxWorkers: availableParallelism() + 1,
    // Each worker imports the code under test once and runs file after file on it, instead of a fresh
    // process importing it all again for every file (~0.5 s of CPU each). Every test builds its own app over
    // its own data directory (a file of read-only tests may share one: `harnessTest({ scope: 'file' })`), so no
    // test reads another's state; a test must not depend on a process-wide counter or memo starting fresh.
    isolate: false,
    env: tmp ? { TMPDIR: tmp } : {},
    // The transformed test and source files are kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by their content): vitest's main process transformed them again every run, ~5-10 s of CPU per project.
    experimental: { fsModuleCache: true },
    // The CLI tests run the compiled bin, built once per run; the PostgreSQL tests a server started once per
    // run (once for both projects: test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'leveldb', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'postgres', include: ON_POSTGRES, env: { ...(tmp ? { TMPDIR: tmp } : {}), FLAGPOLE_TEST_STORE: 'postgres' } } },
    ],
  },
});
