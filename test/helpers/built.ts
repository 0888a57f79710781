/**
 * The bundle test/global-setup.ts builds once per run (`npm run build`: tsc, then scripts/bundle.mjs), the file
 * the package's bin and the npm scripts run. Tests that run the service or the command as a process of its own
 * start it with plain `node`, as `npm start` does: exactly what users run, and one file to load instead of ~400
 * modules (compiling the TypeScript in every child with tsx cost about a second of CPU per process).
 */
import { resolve } from 'node:path';

/** The repository root: the children run from there, as the npm scripts run them. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** The `flagpole` command, the package's bin (`src/cli.ts` compiled and bundled, source maps on). */
export const BUILT_CLI = resolve(ROOT, 'dist/bundle/flagpole.js');

/**
 * Node's arguments that start the service as `flagpole start` does (`npm start`): settings from the environment.
 *
 * @example spawn(process.execPath, [...BUILT_START], { env: { ...process.env, PORT: '4242' } })
 */
export const BUILT_START: readonly string[] = [BUILT_CLI, 'start'];
