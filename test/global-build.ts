/**
 * vitest global setup: builds dist/ once before the tests, so the tests of the `flagpole` command run the
 * compiled bin (`dist/src/cli.js`) as an operator does, over the code under test.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', resolve(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
}
