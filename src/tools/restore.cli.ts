/**
 * `npm run restore -- --data-dir D < dump.json`: loads a full dump (from `npm run dump`) into an empty data
 * directory (docs/storage.md "Restore"). Exit 0 after a summary on stderr; 1 when the dump or directory is
 * refused (message on stderr); 2 for bad arguments.
 */
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { RestoreError, parseDump, restoreDump } from './restore.js';

const USAGE = 'usage: npm run restore -- --data-dir DIR < dump.json';

async function main(): Promise<number> {
  let dataDir: string | undefined;
  try {
    dataDir = parseArgs({ options: { 'data-dir': { type: 'string' } }, strict: true }).values['data-dir'];
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!dataDir) {
    console.error(`--data-dir is required\n${USAGE}`);
    return 2;
  }
  if (process.stdin.isTTY) {
    console.error(`the dump is read from standard input\n${USAGE}`);
    return 2;
  }
  try {
    const summary = await restoreDump(dataDir, parseDump(await text(process.stdin)));
    console.error(`restored the service and ${summary.projects} projects (${summary.flags} flags) into ${dataDir}`);
    return 0;
  } catch (error) {
    console.error(`restore failed: ${error instanceof RestoreError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
