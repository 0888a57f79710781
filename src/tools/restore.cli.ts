/**
 * `npm run restore -- --data-dir D < dump.json`: loads a full dump (from `npm run dump`) into an empty data
 * directory (docs/storage.md "Restore"). Exit 0 after a summary on stderr; 1 when the dump or directory is
 * refused (message on stderr); 2 for bad arguments.
 */
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { RestoreError, parseDump, restoreDump, type DroppedToken } from './restore.js';

const USAGE = 'usage: npm run restore -- --data-dir DIR < dump.json';

/** A line for the operator on standard error (the tool's output, not a log). */
const say = (line: string): void => void process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let dataDir: string | undefined;
  try {
    dataDir = parseArgs({ options: { 'data-dir': { type: 'string' } }, strict: true }).values['data-dir'];
  } catch (error) {
    say(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!dataDir) {
    say(`--data-dir is required\n${USAGE}`);
    return 2;
  }
  if (process.stdin.isTTY) {
    say(`the dump is read from standard input\n${USAGE}`);
    return 2;
  }
  try {
    const summary = await restoreDump(dataDir, parseDump(await text(process.stdin)));
    say(`restored the service and ${summary.projects} projects (${summary.flags} flags) into ${dataDir}`);
    if (summary.droppedTokens.length > 0) say(droppedTokensNotice(summary.droppedTokens));
    return 0;
  } catch (error) {
    say(`restore failed: ${error instanceof RestoreError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
}

/** What the operator must do about the tokens a restore leaves out (docs/storage.md "Restore"). */
function droppedTokensNotice(tokens: DroppedToken[]): string {
  const names = tokens.map((t) => `  ${JSON.stringify(t.tokenName)} (${t.type}${t.userId === null ? '' : ` of user ${t.userId}`})`);
  return [
    `${tokens.length} token${tokens.length === 1 ? ' was' : 's were'} not restored and must be re-created (a dump holds no token hashes):`,
    ...names,
    'On its first start the service stores INIT_ADMIN_API_TOKENS or, without them, creates one admin token and prints it once.',
  ].join('\n');
}

process.exitCode = await main();
