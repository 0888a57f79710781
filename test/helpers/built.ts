/**
 * The compiled entry points test/global-setup.ts builds once per run. Tests that run the service or the
 * command as a process of its own start these with plain `node`, as `npm start` does: compiling the
 * TypeScript again in every child (tsx) costs about a second of CPU per process.
 */
import { resolve } from 'node:path';

/** The repository root: the children run from there, as the npm scripts run them. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** The service's entry (`src/main.ts` compiled): reads its settings from the environment and serves. */
export const BUILT_MAIN = resolve(ROOT, 'dist/src/main.js');

/** The `flagpole` command (`src/cli.ts` compiled), the package's bin. */
export const BUILT_CLI = resolve(ROOT, 'dist/src/cli.js');
