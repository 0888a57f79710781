#!/usr/bin/env node
/**
 * The `flagpole` command (package.json `bin`): `start`, `dump`, `restore`, `backup`, `migrate`, `copy-store`, each with `--help`.
 * Exit codes (`src/cli/exit-codes.ts`): 0 done, 1 the work failed, 2 the command line is wrong.
 * The work is `runFlagpole` (`src/cli/run-flagpole.ts`) over this process's arguments, environment and streams.
 */
import { runFlagpole } from './cli/run-flagpole.js';

process.exitCode = await runFlagpole(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
