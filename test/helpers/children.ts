import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';

/**
 * Kills `child` (SIGKILL) once the running test has finished, if it is still running then: a test that failed
 * or timed out before it stopped its server must not leave the process behind. A child started outside a test
 * (in a fixture's setup) is left to the fixture that started it.
 *
 * @example const child = spawn(process.execPath, [...BUILT_START]); killAfterTest(child);
 */
export function killAfterTest(child: ChildProcess): void {
  try {
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  } catch {
    // Not inside a test: the caller's fixture stops it.
  }
}
