import { InvalidArgumentError, type Command } from 'commander';
import type { RecoveryNotice } from '../../snapshots/recovery.js';
import { DumpError, dumpDataDir, stableStringify } from '../tools/dump.js';
import { CliCommand, type CliRun } from './cli-run.js';
import { EXIT } from './exit-codes.js';
import { progress } from './progress.js';
import { storeLocation, type StoreFlags } from './store-location.js';

/** A sequence number: decimal digits, at least 1. */
export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer (a sequence number).');
  return n;
}

/**
 * `flagpole dump (--data-dir D | --database-url URL) [--project P] [--at SEQ]`: prints the state of a stopped
 * service's store as stable JSON on standard output (docs/storage.md "Dumps").
 */
export const dumpCommand = (run: CliRun): Command => new CliCommand('dump', run)
  .description('print the state of a STOPPED service\'s store as stable JSON (for a running service: flagpole backup, or GET /api/admin/state)')
  .option('--data-dir <dir>', 'the data directory (DATA_DIR of the service)')
  .option('--database-url <url>', 'the PostgreSQL database instead (default: DATABASE_URL; prefer it or DATABASE_URL_FILE, an argument shows in the process list)')
  .option('--project <id>', 'only this project (and no service part)')
  .option('--at <seq>', 'replay the project\'s log only up to this sequence number (needs --project)', positiveInteger)
  .action(async (options: StoreFlags & { project?: string; at?: number }, command: Command) => {
    const location = storeLocation(options, (message) => command.error(`error: ${message}`, { exitCode: EXIT.usage, code: 'flagpole.store' }), run.env);
    const bar = progress('projects', run.stderr);
    try {
      const notices: RecoveryNotice[] = [];
      const dump = await dumpDataDir(location, { project: options.project, at: options.at, notices, onProject: (done, total) => bar.update(done, total) });
      bar.stop();
      for (const notice of notices) run.say(`warning: ${notice.key}: ${notice.message}`);
      run.stdout.write(stableStringify(dump));
      run.exitCode = EXIT.ok;
    } catch (error) {
      bar.stop();
      // Corrupt records name their key in the message; anything else unexpected keeps its stack.
      const known = error instanceof DumpError || (error instanceof Error && error.name === 'CorruptRecordError');
      run.say(`dump failed: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}`);
      run.exitCode = EXIT.failure;
    }
  });
