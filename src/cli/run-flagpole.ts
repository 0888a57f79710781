import { readFileSync } from 'node:fs';
import { CommanderError, type Command } from 'commander';
import { CliCommand, cliRun, type CliIo, type CliRun } from './cli-run.js';
import { EXIT } from './exit-codes.js';

/**
 * The commands in the order the help lists them, each imported when needed: a command's module brings what it
 * runs on (the store, the migration's readers: up to a second of CPU to load), so `flagpole dump` loads dump's
 * alone (`flagpole help dump` too) and `--help`, `--version` or a wrong command loads them all.
 */
const COMMANDS: Record<string, (run: CliRun) => Promise<Command>> = {
  start: async (run) => (await import('./start.command.js')).startCommand(run),
  dump: async (run) => (await import('./dump.command.js')).dumpCommand(run),
  restore: async (run) => (await import('./restore.command.js')).restoreCommand(run),
  backup: async (run) => (await import('./backup.command.js')).backupCommand(run),
  migrate: async (run) => (await import('./migrate.command.js')).migrateCommand(run),
  'copy-store': async (run) => (await import('./copy-store.command.js')).copyStoreCommand(run),
};

/** The package's version: package.json is two levels up from this module as a source, bundled or compiled. */
function version(): string {
  for (const path of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flagpole' && pkg.version) return pkg.version;
    } catch {
      // Not this one.
    }
  }
  return 'unknown';
}

/**
 * Runs `flagpole <args>` (the arguments after the command's name) over `io` and resolves with its exit code
 * (`src/cli/exit-codes.ts`): what the bin does (`src/cli.ts`, with its own process's streams and environment),
 * and what the tests run in their own process. Nothing here exits the process; `start` alone takes it over
 * (the service runs until a signal).
 *
 * @example const code = await runFlagpole(['dump', '--data-dir', dir], { env: process.env, stdin, stdout, stderr });
 */
export async function runFlagpole(args: readonly string[], io: CliIo): Promise<number> {
  const run = cliRun(io);
  const program = new CliCommand('flagpole', io)
    .description('feature-flag service speaking the Unleash APIs')
    .version(version())
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', '\nExit codes: 0 done, 1 the work failed (message on standard error), 2 the command line is wrong.\nDocs: docs/operations.md');

  // The command named first on the line, when it is one (commander's options all follow it), or the one
  // `help <command>` asks about: that one alone.
  const named = args[0] === 'help' ? args[1] : args[0];
  const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  for (const command of await Promise.all(wanted.map((name) => COMMANDS[name]!(run)))) {
    program.addCommand(command.exitOverride().showHelpAfterError('(add --help for usage)'));
  }

  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Help and version asked for are answers (commander's exit code 0); every other refusal is a usage error,
    // including no command at all (commander shows the help with exit code 1).
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  return run.exitCode;
}
