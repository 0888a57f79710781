#!/usr/bin/env node
/**
 * The `flagpole` command (package.json `bin`): `start`, `dump`, `restore`, `backup`, `migrate`, `copy-store`, each with `--help`.
 * Exit codes (`src/cli/exit-codes.ts`): 0 done, 1 the work failed, 2 the command line is wrong.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT } from './cli/exit-codes.js';

/**
 * The commands in the order the help lists them, each imported when needed: a command's module brings what it
 * runs on (the store, the migration's readers: up to a second of CPU to load), so `flagpole dump` loads dump's
 * alone (`flagpole help dump` too) and `--help`, `--version` or a wrong command loads them all.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import('./cli/start.command.js')).startCommand(),
  dump: async () => (await import('./cli/dump.command.js')).dumpCommand(),
  restore: async () => (await import('./cli/restore.command.js')).restoreCommand(),
  backup: async () => (await import('./cli/backup.command.js')).backupCommand(),
  migrate: async () => (await import('./cli/migrate.command.js')).migrateCommand(),
  'copy-store': async () => (await import('./cli/copy-store.command.js')).copyStoreCommand(),
};

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
  .addHelpText('after', '\nExit codes: 0 done, 1 the work failed (message on standard error), 2 the command line is wrong.\nDocs: docs/operations.md');

// The command named first on the line, when it is one (commander's options all follow it), or the one
// `help <command>` asks about: that one alone.
const named = process.argv[2] === 'help' ? process.argv[3] : process.argv[2];
const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
for (const command of await Promise.all(wanted.map((name) => COMMANDS[name]!()))) program.addCommand(command);

for (const command of program.commands) command.exitOverride().showHelpAfterError('(add --help for usage)');

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Help and version asked for are answers (commander's exit code 0); every other refusal is a usage error,
  // including no command at all (commander shows the help with exit code 1).
  process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
}
