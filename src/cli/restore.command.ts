import { createReadStream } from 'node:fs';
import { text } from 'node:stream/consumers';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { isBackupHeader, readBackup } from '../tools/restore-backup.js';
import { RestoreError, parseDump, restoreDump, type DisabledAddon, type DroppedToken, type RestoreSummary } from '../tools/restore.js';
import { CliCommand, type CliRun } from './cli-run.js';
import { EXIT } from './exit-codes.js';
import { locationLabel } from '../../snapshots/open-store.js';
import { progress } from './progress.js';
import { storeLocation, type StoreFlags } from './store-location.js';

/**
 * `flagpole restore (--data-dir D | --database-url URL) [FILE]`: rebuilds an empty data directory or database
 * from a backup (`flagpole backup`) or a full dump (`flagpole dump`), read from FILE or standard input
 * (docs/operations.md, docs/storage.md "Restore").
 */
export const restoreCommand = (run: CliRun): Command => new CliCommand('restore', run)
  .description('rebuild an EMPTY data directory or database from a backup file (flagpole backup) or a full dump (flagpole dump)')
  .option('--data-dir <dir>', 'the data directory to write (missing or empty)')
  .option('--database-url <url>', 'the PostgreSQL database to write instead (empty; default: DATABASE_URL)')
  .argument('[file]', 'the backup or dump file; standard input when absent or "-"')
  .action(async (file: string | undefined, options: StoreFlags, command: Command) => {
    const location = storeLocation(options, (message) => command.error(`error: ${message}`, { exitCode: EXIT.usage, code: 'flagpole.store' }), run.env);
    const fromStdin = file === undefined || file === '-';
    if (fromStdin && run.stdin.isTTY) command.error('error: give the backup or dump file, or pipe it on standard input', { exitCode: EXIT.usage, code: 'flagpole.noInput' });
    const input: Readable = fromStdin ? run.stdin : createReadStream(file);
    const bar = progress('flags (read, then written)', run.stderr);
    try {
      const first = await firstLine(input);
      let summary: RestoreSummary;
      let kind: string;
      if (isBackupHeader(first.line)) {
        // One bar over both halves: the flags read and checked, then the flags written.
        const { header, dump } = await readBackup(first.all, (done, total) => bar.update(done, 2 * total));
        let written = header.flags;
        summary = await restoreDump(location, dump, { keepTokens: true, onScope: (flags) => bar.update(written += flags, 2 * header.flags) });
        kind = `the backup of ${header.createdAt}`;
      } else {
        summary = await restoreDump(location, parseDump(await text(first.all)));
        kind = 'the dump';
      }
      bar.stop();
      run.say(`restored the service and ${summary.projects} projects (${summary.flags} flags) from ${kind} into ${locationLabel(location)}`);
      if (summary.droppedTokens.length > 0) run.say(droppedTokensNotice(summary.droppedTokens));
      if (summary.disabledAddons.length > 0) run.say(disabledAddonsNotice(summary.disabledAddons));
      run.exitCode = EXIT.ok;
    } catch (error) {
      bar.stop();
      const known = error instanceof RestoreError || (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR';
      run.say(`restore failed: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}`);
      run.exitCode = EXIT.failure;
    }
  });

/**
 * The input's first line and a stream of the whole input (that line included), so the kind of file is
 * known before it is read: a backup is read line by line, a dump whole.
 */
async function firstLine(input: Readable): Promise<{ line: string; all: Readable }> {
  // One iterator, read on by the rest: leaving a `for await` early would destroy the stream.
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const head: Buffer[] = [];
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const chunk = Buffer.from(next.value);
    head.push(chunk);
    if (chunk.includes(0x0a)) break;
  }
  const all = Buffer.concat(head);
  const cut = all.indexOf(0x0a);
  const line = (cut === -1 ? all : all.subarray(0, cut + 1)).toString('utf8');
  async function* rest(): AsyncGenerator<Buffer> {
    if (all.length > 0) yield all;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield Buffer.from(next.value);
  }
  return { line, all: Readable.from(rest(), { objectMode: false }) };
}

/** What the operator must do about the addons a restore of a dump left disabled (docs/storage.md "Restore"). */
function disabledAddonsNotice(addons: DisabledAddon[]): string {
  return [
    `${addons.length} addon${addons.length === 1 ? ' was' : 's were'} restored disabled, without the secrets a dump masks; set them and enable each with PUT /api/admin/addons/<id>:`,
    ...addons.map((a) => `  addon ${a.id} (${a.provider}): ${a.parameters.join(', ')}`),
  ].join('\n');
}

/** What the operator must do about the tokens a restore of a dump leaves out (docs/storage.md "Restore"). */
function droppedTokensNotice(tokens: DroppedToken[]): string {
  const names = tokens.map((t) => `  ${JSON.stringify(t.tokenName)} (${t.type}${t.userId === null ? '' : ` of user ${t.userId}`})`);
  return [
    `${tokens.length} token${tokens.length === 1 ? ' was' : 's were'} not restored and must be re-created (a dump holds no token hashes):`,
    ...names,
    'On its first start the service stores INIT_ADMIN_API_TOKENS or, without them, creates one admin token and prints it once.',
  ].join('\n');
}
