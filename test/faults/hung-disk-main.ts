/**
 * The service's real entry (`src/main.ts`) with the store's test gate (`snapshots/disk-faults.ts`) in place,
 * for tests that need a stuck disk in a child process: `Registry.open` is wrapped to pass the gate, then
 * `src/main.ts` runs unchanged (its start, its SIGTERM stop). The parent drives the disk over the IPC channel:
 * the message `'hang'` makes every write from then on wait forever, answered `'hung'`.
 *
 * @example spawn(process.execPath, ['--import', 'tsx', 'test/faults/hung-disk-main.ts'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env })
 */
import { Registry } from '../../src/actors/registry.js';
import type { RegistryOptions } from '../../src/actors/registry-options.js';
import { DiskFaults } from '../../snapshots/disk-faults.js';

const faults = new DiskFaults();
const open = Registry.open.bind(Registry);
Registry.open = (options: RegistryOptions) => open({ ...options, writeGate: faults });

process.on('message', (message) => {
  if (message !== 'hang') return;
  faults.hang();
  process.send?.('hung');
});

await import('../../src/main.js');
