/**
 * `npm run dump -- --data-dir D [--project P] [--at SEQ]`: prints the state of a stopped service's data
 * directory as stable JSON (docs/storage.md "Dumps"). Exit 0 with the dump on stdout; 1 when the directory
 * cannot be dumped (message on stderr); 2 for bad arguments.
 */
import { parseArgs } from 'node:util';
import { DumpError, dumpDataDir, stableStringify } from './dump.js';
import type { RecoveryNotice } from '../../snapshots/recovery.js';

const USAGE = 'usage: npm run dump -- --data-dir DIR [--project ID] [--at SEQ]';

/** A line for the operator on standard error (the tool's output, not a log). */
const say = (line: string): void => void process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let values: { 'data-dir'?: string; project?: string; at?: string };
  try {
    ({ values } = parseArgs({ options: { 'data-dir': { type: 'string' }, project: { type: 'string' }, at: { type: 'string' } }, strict: true }));
  } catch (error) {
    say(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const dataDir = values['data-dir'];
  if (!dataDir) {
    say(`--data-dir is required\n${USAGE}`);
    return 2;
  }
  let at: number | undefined;
  if (values.at !== undefined) {
    at = Number(values.at);
    if (!/^\d+$/.test(values.at) || !Number.isSafeInteger(at) || at < 1) {
      say(`--at must be a positive integer (a sequence number), got "${values.at}"\n${USAGE}`);
      return 2;
    }
  }
  try {
    const notices: RecoveryNotice[] = [];
    const dump = await dumpDataDir(dataDir, { project: values.project, at, notices });
    for (const notice of notices) say(`warning: ${notice.key}: ${notice.message}`);
    process.stdout.write(stableStringify(dump));
    return 0;
  } catch (error) {
    // Corrupt records name their key in the message; anything else unexpected keeps its stack.
    const known = error instanceof DumpError || (error instanceof Error && error.name === 'CorruptRecordError');
    say(`dump failed: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
