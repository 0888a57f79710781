import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** vitest's `onTestFinished`: the global one, or a test context's. */
export type OnTestFinished = (fn: () => void) => void;

/**
 * Kills `child` (SIGKILL) once the running test has finished, if it is still running then: a test that failed
 * or timed out before it stopped its server must not leave the process behind. A child started outside a test
 * (in a fixture's setup) is left to the fixture that started it. A concurrent test passes its context's
 * `onTestFinished`: the global one hooks whichever test vitest last started, and a shorter test beside it
 * finishing first killed this test's child.
 *
 * @example const child = spawn(process.execPath, [...BUILT_START]); killAfterTest(child);
 */
export function killAfterTest(child: ChildProcess, finished: OnTestFinished = onTestFinished): void {
  try {
    finished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  } catch {
    // Not inside a test: the caller's fixture stops it.
  }
}
