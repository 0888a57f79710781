import { closeSync, existsSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BACKUP_FORMAT, type BackupHeader } from '../actors/dumps/state-backup.js';

/** A backup that did not complete; the message says why and never holds the token. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupOptions {
  /** Base URL of the running service, e.g. `http://127.0.0.1:4242` (a path prefix is kept). */
  url: URL;
  /** An admin API token; absent for a service run with `AUTH_TYPE=none`. */
  token?: string | undefined;
  /** The backup file to write; written as `<out>.partial` and renamed when complete. */
  out: string;
  /** Replace an existing `out`. */
  force?: boolean;
  /** Longest wait for the answer to start, and between two chunks of it. */
  timeoutMs: number;
  /** Flags received so far, of the total the header announced. */
  onProgress?: (flags: number, total: number) => void;
}

/** What a completed backup holds. */
export interface BackupResult {
  header: BackupHeader;
  bytes: number;
}

/** The URL as it may be shown: without user, password, query or fragment. */
export const shownUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

/** What an error answer of the service means for the operator. */
function refusal(status: number, message: string, at: string): string {
  switch (status) {
    case 401: return `the service refused the token (401${message ? `: ${message}` : ''}); give an admin API token with --token, FLAGPOLE_TOKEN or --token-file`;
    case 403: return `the token may not take backups (403${message ? `: ${message}` : ''}); a backup needs an admin token`;
    case 404: return `no backup endpoint at ${at} (404): is --url the base URL of a flagpole service that has GET /api/admin/backup?`;
    case 429: return `the service is already writing its most dumps or backups at once (429); try again when one is done`;
    default: return `the service answered ${status}${message ? `: ${message}` : ''}`;
  }
}

/**
 * Takes a live backup of a running service (`GET /api/admin/backup`) into a file: streamed to
 * `<out>.partial` (mode 0600: it holds token hashes), checked as it arrives (a header of a format this code
 * knows, flag lines counted, the end line with the header's counts), synced, then renamed to `out`. On any
 * failure the partial file is removed and `out` is left as it was.
 *
 * @example await backupService({ url: new URL('http://127.0.0.1:4242'), token, out: 'flagpole.backup', timeoutMs: 30_000 })
 */
export async function backupService(options: BackupOptions): Promise<BackupResult> {
  const endpoint = new URL(`${options.url.pathname.replace(/\/+$/, '')}/api/admin/backup`, options.url);
  const at = shownUrl(endpoint);
  if (!options.force && existsSync(options.out)) throw new BackupError(`${options.out} exists; choose another --out, or add --force to replace it`);
  const controller = new AbortController();
  let body: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let timedOut = false;
  // An abort alone does not end a body already being read: the read is cancelled too.
  const expire = () => {
    timedOut = true;
    controller.abort();
    body?.cancel().catch(() => undefined);
  };
  let timer = setTimeout(expire, options.timeoutMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(expire, options.timeoutMs);
  };
  const partial = `${options.out}.partial`;
  let fd: number | undefined;
  try {
    let response: Response;
    try {
      response = await fetch(endpoint, { headers: options.token ? { authorization: options.token } : {}, signal: controller.signal, redirect: 'error' });
    } catch (error) {
      throw new BackupError(`cannot reach ${at}: ${reason(error, options.timeoutMs)}`);
    }
    if (response.status !== 200 || !response.body) {
      throw new BackupError(refusal(response.status, await errorMessage(response), at));
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('application/x-ndjson')) {
      await response.body.cancel();
      throw new BackupError(`${at} answered 200 with ${type || 'no content type'}, not a flagpole backup: is --url the base URL of a flagpole service?`);
    }
    // The partial file is ours (a leftover of an interrupted run is overwritten); `out` was checked above.
    fd = openSync(partial, 'w', 0o600);
    fchmodSync(fd, 0o600);
    const reader = new LineCounter();
    let bytes = 0;
    body = response.body.getReader();
    try {
      for (let next = await body.read(); !next.done; next = await body.read()) {
        rearm();
        writeSync(fd, next.value);
        bytes += next.value.length;
        reader.push(next.value);
        if (reader.header) options.onProgress?.(reader.flags, reader.header.flags);
      }
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`the backup stream from ${at} broke off after ${bytes} bytes: ${reason(error, options.timeoutMs)}`);
    }
    if (timedOut) throw new BackupError(`the backup stream from ${at} broke off after ${bytes} bytes: ${reason({ name: 'AbortError' }, options.timeoutMs)}`);
    const header = reader.finish();
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(partial, options.out);
    syncDirectory(dirname(options.out));
    return { header, bytes };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Why a request failed, in words: the network error's code (ECONNREFUSED, ENOTFOUND, ...) or the timeout. */
function reason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s (--timeout)`;
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

/** The `message` of the service's error body (the common error shape), if it has one. */
async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message.slice(0, 500) : '';
  } catch {
    return '';
  }
}

function syncDirectory(directory: string): void {
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot sync a directory; the file itself is synced.
  }
}

/** Follows the backup's lines as they arrive: the header, flag lines counted, the end line checked. */
class LineCounter {
  header: BackupHeader | undefined;
  flags = 0;
  private ended = false;
  private rest = '';
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  push(chunk: Uint8Array): void {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.rest = lines.pop()!;
    for (const line of lines) this.line(line);
  }

  finish(): BackupHeader {
    if (this.rest !== '') this.line(this.rest);
    if (!this.header) throw new BackupError('the service sent no backup header');
    if (!this.ended) throw new BackupError('the backup stream ended without its end line: it was cut short');
    return this.header;
  }

  private line(line: string): void {
    if (this.ended) throw new BackupError('the service sent more after the end line');
    if (!this.header) {
      let header: BackupHeader;
      try {
        header = JSON.parse(line) as BackupHeader;
      } catch {
        throw new BackupError('the service did not start its answer with a backup header');
      }
      if (header.flagpoleBackup !== BACKUP_FORMAT) throw new BackupError(`the service sent a backup of format ${String(header.flagpoleBackup)}; this flagpole reads format ${BACKUP_FORMAT} (upgrade the tool)`);
      this.header = header;
    } else if (line.startsWith('{"flag"')) {
      this.flags += 1;
    } else if (line.startsWith('{"end"')) {
      const { end } = JSON.parse(line) as { end: { flags: number } };
      if (end.flags !== this.header.flags || this.flags !== this.header.flags) throw new BackupError(`the backup announced ${this.header.flags} flags and sent ${this.flags}`);
      this.ended = true;
    }
  }
}
