/**
 * Per-test fixtures (vitest `test.extend`): every test gets its own harness over a fresh data directory,
 * built when the test asks for it and closed after it, so no state is shared between tests and none lives
 * at module level.
 *
 * @example
 * ```ts
 * import { test } from './fixtures.js';
 * test('lists projects', async ({ h }) => { expect((await h.json('GET', '/api/admin/projects')).status).toBe(200); });
 *
 * const test = harnessTest({ env: { SNAPSHOT_EVERY: '1' }, arrange: (h) => createFlag(h, 'f') });
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from 'vitest';
import { harness, type Harness, type HarnessSeams } from './harness.js';

export interface HarnessFixtures {
  /** A fresh app over a fresh data directory (see `harness.ts`). */
  h: Harness;
  /** Opens another harness (its own env, or over an existing data directory); closed after the test. */
  openHarness: (env?: Record<string, string>, dataDir?: string) => Promise<Harness>;
  /** A fresh empty temporary directory; removed after the test. */
  tempDir: (label: string) => string;
  /**
   * Like `openHarness`, for a data directory made with `tempDir` (or inside one): its harnesses are closed
   * after the test before `tempDir` removes the directories, not after, as a store is closed before its files go.
   */
  openHarnessOverTempDir: (env?: Record<string, string>, dataDir?: string) => Promise<Harness>;
}

export interface HarnessOptions {
  /** Environment of `h` (`readConfig` variables), e.g. `{ LOG_LEVEL: 'info' }`. */
  env?: Record<string, string>;
  /** Runs on `h` before the test, like a `beforeEach` of the file. */
  arrange?: (h: Harness) => Promise<unknown>;
  /** What `h` is built with in place of what `flagpole start` uses (`harness.ts`). */
  seams?: HarnessSeams;
  /**
   * `'file'`: one `h` for every test of the file, for files whose tests only read (each proving it, e.g. with
   * `expectNoChange`); built and closed once instead of once per test. Default `'test'`: an `h` of its own.
   */
  scope?: 'test' | 'file';
}

/** Hands a test a function that opens harnesses, and closes every one it opened once the test is done. */
async function openHarnesses(use: (open: HarnessFixtures['openHarness']) => Promise<void>): Promise<void> {
  const opened: Harness[] = [];
  try {
    await use(async (env = {}, dataDir) => {
      const h = await harness(env, dataDir);
      opened.push(h);
      return h;
    });
  } finally {
    for (const h of opened) await h.close();
  }
}

/** A `test` whose `h` is built with `options`. */
export function harnessTest(options: HarnessOptions = {}) {
  return base.extend<HarnessFixtures>({
    // vitest reads what a fixture depends on from its first parameter's destructuring: `{}` is none.
    h: [async ({}, use) => {
      const h = await harness(options.env, undefined, options.seams);
      try {
        await options.arrange?.(h);
        await use(h);
      } finally {
        await h.close();
      }
    }, { scope: options.scope ?? 'test' }],
    openHarness: async ({}, use) => openHarnesses(use),
    tempDir: async ({}, use) => {
      const made: string[] = [];
      try {
        await use((label) => {
          const dir = mkdtempSync(join(tmpdir(), `flagpole-${label}-`));
          made.push(dir);
          return dir;
        });
      } finally {
        for (const dir of made) {
          rmSync(dir, { recursive: true, force: true });
          // The token key file a server started over `dir` created beside it.
          rmSync(`${dir}.token-secret`, { force: true });
        }
      }
    },
    // Fixtures are torn down in the reverse order they were set up: depending on `tempDir`, this one is set
    // up after it and so torn down before it (`openHarness`, registered before `tempDir`, is torn down after).
    openHarnessOverTempDir: async ({ tempDir: _tempDir }, use) => openHarnesses(use),
  });
}

/** A `test` with a default harness `h` (and `openHarness`, `tempDir`). */
export const test = harnessTest();
