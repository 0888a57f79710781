import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { BackupError, backupService } from '../tools/backup.js';
import { CliCommand, type CliRun } from './cli-run.js';
import { EXIT } from './exit-codes.js';
import { progress } from './progress.js';

/** An http(s) URL without query or fragment: the base URL of the service. */
export function serviceUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be an http:// or https:// URL, e.g. http://127.0.0.1:4242.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('must be an http:// or https:// URL.');
  if (url.search || url.hash) throw new InvalidArgumentError('must be the base URL of the service, without a query or fragment.');
  if (url.username || url.password) throw new InvalidArgumentError('must not hold a user or password: give the token with --token, FLAGPOLE_TOKEN or --token-file.');
  return url;
}

/** Seconds, 1 to 3600. */
function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 3600) throw new InvalidArgumentError('must be a whole number of seconds from 1 to 3600.');
  return n;
}

interface BackupFlags {
  url: string;
  token?: string;
  tokenFile?: string;
  out: string;
  force?: boolean;
  timeout: number;
}

/**
 * `flagpole backup --url URL --token T --out FILE`: a consistent copy of a RUNNING service, through
 * `GET /api/admin/backup` (docs/operations.md "Back up and restore"). The token is sent, never printed.
 */
export const backupCommand = (run: CliRun): Command => new CliCommand('backup', run)
  .description('take a live backup of a RUNNING service into a file (restore it with flagpole restore)')
  .addOption(new Option('--url <url>', 'base URL of the service, e.g. http://127.0.0.1:4242').env('FLAGPOLE_URL').makeOptionMandatory())
  .addOption(new Option('--token <token>', 'an admin API token (visible to other local users in the process list: prefer FLAGPOLE_TOKEN or --token-file)').env('FLAGPOLE_TOKEN'))
  .addOption(new Option('--token-file <file>', 'read the admin API token from this file').conflicts('token'))
  .requiredOption('--out <file>', 'the backup file to write (mode 0600: it holds token hashes)')
  .option('--force', 'replace --out if it exists')
  .addOption(new Option('--timeout <seconds>', 'longest wait for the service to answer, and between two chunks').default(30).argParser(seconds))
  .action(async (options: BackupFlags, command: Command) => {
    let url: URL;
    try {
      url = serviceUrl(options.url);
    } catch (error) {
      // Not commander's argParser: its message would repeat the value, which may hold a secret.
      command.error(`error: option '--url <url>' ${(error as Error).message}`, { exitCode: EXIT.usage, code: 'flagpole.url' });
    }
    let token = options.token;
    if (options.tokenFile !== undefined) {
      try {
        token = readFileSync(options.tokenFile, 'utf8').trim();
      } catch (error) {
        command.error(`error: cannot read --token-file ${options.tokenFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { exitCode: EXIT.usage, code: 'flagpole.tokenFile' });
      }
    }
    const bar = progress('flags', run.stderr);
    const started = Date.now();
    try {
      const { header, bytes } = await backupService({
        url, token, out: options.out, force: options.force, timeoutMs: options.timeout * 1000,
        onProgress: (done, total) => bar.update(done, total),
      });
      bar.stop();
      run.say(`backed up ${header.projects} projects (${header.flags} flags) as of ${header.createdAt} into ${options.out}: ${bytes} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      run.exitCode = EXIT.ok;
    } catch (error) {
      bar.stop();
      const known = error instanceof BackupError || ['EACCES', 'ENOENT', 'EEXIST', 'EISDIR', 'ENOSPC'].includes((error as NodeJS.ErrnoException).code ?? '');
      run.say(`backup failed: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}`);
      run.exitCode = EXIT.failure;
    }
  });
