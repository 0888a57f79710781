#!/usr/bin/env node
/**
 * The `flagpole` command (package.json `bin`): `start`, `dump`, `restore`, `backup`, `migrate`, `copy-store`, each with `--help`.
 * Exit codes (`src/cli/exit-codes.ts`): 0 done, 1 the work failed, 2 the command line is wrong.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { backupCommand } from './cli/backup.command.js';
import { copyStoreCommand } from './cli/copy-store.command.js';
import { dumpCommand } from './cli/dump.command.js';
import { migrateCommand } from './cli/migrate.command.js';
import { EXIT } from './cli/exit-codes.js';
import { restoreCommand } from './cli/restore.command.js';
import { startCommand } from './cli/start.command.js';

/** The package's version: package.json is two levels up when compiled (dist/src/), one from the source. */
function version(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flagpole' && pkg.version) return pkg.version;
    } catch {
      // Not this one.
    }
  }
  return 'unknown';
}

const program = new Command('flagpole')
  .description('feature-flag service speaking the Unleash APIs')
  .version(version())
  // Settings set here are inherited by the commands added below.
  .exitOverride()
  .showHelpAfterError('(add --help for usage)')
  .addHelpText('after', '\nExit codes: 0 done, 1 the work failed (message on standard error), 2 the command line is wrong.\nDocs: docs/operations.md')
  .addCommand(startCommand())
  .addCommand(dumpCommand())
  .addCommand(restoreCommand())
  .addCommand(backupCommand())
  .addCommand(migrateCommand())
  .addCommand(copyStoreCommand());

for (const command of program.commands) command.exitOverride().showHelpAfterError('(add --help for usage)');

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Help and version asked for are answers (commander's exit code 0); every other refusal is a usage error,
  // including no command at all (commander shows the help with exit code 1).
  process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
}
