import type { Command } from 'commander';
import { CliCommand, type CliRun } from './cli-run.js';

/**
 * `flagpole start`: the service (`src/main.ts`), configured by environment variables (README "Configuration").
 * It takes the process over (its own environment and streams, exiting on a signal): the bin's alone.
 */
export const startCommand = (run: CliRun): Command => new CliCommand('start', run)
  .description('start the service on DATA_DIR (configured by environment variables: see the README); exits 1 when it cannot start')
  .action(async () => {
    await import('../main.js');
  });
