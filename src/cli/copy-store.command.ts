import type { Command } from 'commander';
import { locationLabel } from '../../snapshots/open-store.js';
import { CopyError, DumpError, copyStore } from '../tools/copy-store.js';
import { CliCommand, type CliRun } from './cli-run.js';
import { EXIT } from './exit-codes.js';
import { progress } from './progress.js';
import { storeArgument } from './store-location.js';

interface CopyFlags {
  from: string;
  to: string;
  fromSchema?: string;
  toSchema?: string;
}

/**
 * `flagpole copy-store --from <DATA_DIR or URL> --to <URL or DATA_DIR>`: moves a whole installation between
 * LevelDB and PostgreSQL (docs/operations.md "Moving between stores"), checked as restore checks: the dumps of
 * both must be equal. Both stopped; the target empty.
 */
export const copyStoreCommand = (run: CliRun): Command => new CliCommand('copy-store', run)
  .description('copy a whole STOPPED installation between a data directory and a PostgreSQL database (either way) into an EMPTY target, and check that their dumps are equal')
  .requiredOption('--from <store>', 'the store to copy: a data directory, or a postgres:// URL')
  .requiredOption('--to <store>', 'the empty store to write: a postgres:// URL, or a data directory')
  .option('--from-schema <name>', 'the schema of a --from database (default: public)')
  .option('--to-schema <name>', 'the schema of a --to database (default: public)')
  .action(async (options: CopyFlags, command: Command) => {
    const usage = (message: string): never => command.error(`error: ${message}`, { exitCode: EXIT.usage, code: 'flagpole.store' });
    const from = storeArgument(options.from, options.fromSchema, (message) => usage(`--from: ${message.replace(/^--database-url /, '')}`));
    const to = storeArgument(options.to, options.toSchema, (message) => usage(`--to: ${message.replace(/^--database-url /, '')}`));
    const bar = progress('keys copied', run.stderr);
    try {
      const summary = await copyStore(from, to, (copied) => bar.update(copied, copied));
      bar.stop();
      run.say(`copied ${summary.keys} keys (${summary.records} log records, ${summary.projects} projects) from ${locationLabel(from)} into ${locationLabel(to)}; their dumps are equal`);
      run.exitCode = EXIT.ok;
    } catch (error) {
      bar.stop();
      const known = error instanceof CopyError || error instanceof DumpError || (error instanceof Error && error.name === 'CorruptRecordError');
      run.say(`copy-store failed: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}`);
      run.exitCode = EXIT.failure;
    }
  });
