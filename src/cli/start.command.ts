import { Command } from 'commander';

/** `flagpole start`: the service (`src/main.ts`), configured by environment variables (README "Configuration"). */
export const startCommand = (): Command => new Command('start')
  .description('start the service on DATA_DIR (configured by environment variables: see the README); exits 1 when it cannot start')
  .action(async () => {
    await import('../main.js');
  });
