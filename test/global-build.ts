/**
 * vitest global setup: builds dist/ once before the tests, so the tests of the `flagpole` command run the
 * compiled bin (`dist/src/cli.js`) as an operator does, over the code under test.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  // The build `prepare` runs (scripts/build-if-possible.mjs): tsc, then the bin made executable.
  execFileSync(process.execPath, [resolve(root, 'scripts/build-if-possible.mjs')], { cwd: root, stdio: 'inherit' });
}
