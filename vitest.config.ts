import { accessSync, constants, statfsSync } from 'node:fs';
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

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: tmp ? { TMPDIR: tmp } : {},
    // The CLI tests run the compiled bin: build it once per run.
    globalSetup: ['test/global-build.ts'],
  },
});
