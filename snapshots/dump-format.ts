import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { keys, seqPart, type Scope } from './keys.js';
import { DataDirLockedError } from './level-store.js';
import { locationLabel, openStore, type StoreLocation } from './open-store.js';
import { DatabaseInUseError } from './pg/pg-errors.js';
import type { Store } from './store.js';

export { stableJsonPieces, stableStringify } from './stable-json.js';

/** Version of the dump document; restore refuses any other. */
export const DUMP_FORMAT = 1;

/** A failure of the dump tool the operator can act on (message says what to do). */
export class DumpError extends Error {
  override name = 'DumpError';
}

/**
 * Opens a stopped service's store for reading: a data directory, or a PostgreSQL database (`location`). Level
 * would create a missing directory and the PostgreSQL store its tables, and a dump must never write a new
 * store; a store in use is named as such.
 */
export async function openForReading(location: StoreLocation): Promise<Store> {
  const { dataDir } = location;
  if (!location.database && !existsSync(join(dataDir, 'CURRENT'))) throw new DumpError(`${dataDir} is not a flagpole data directory (no LevelDB CURRENT file)`);
  try {
    return await openStore(location, { create: false, alone: true });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new DumpError(`${dataDir} is in use by another process (its LevelDB lock file ${join(dataDir, 'LOCK')} is held): is the service running? Stop it first, or take a live copy with flagpole backup`);
    }
    if (error instanceof DatabaseInUseError) throw new DumpError(`${error.message}, or take a live copy with flagpole backup`);
    throw new DumpError(`cannot open ${locationLabel(location)}: ${(error as Error).message}`);
  }
}

/** Every registered project id, in key order. */
export async function projectIds(store: Store): Promise<string[]> {
  const ids: string[] = [];
  for await (const key of store.keys(keys.projectsPrefix)) ids.push(key.slice(keys.projectsPrefix.length));
  return ids;
}

/**
 * Time travel needs a snapshot at or before `at`, or the log from its first record. With the log trimmed
 * (LOG_RETENTION) or the directory restored from a dump, an earlier moment is gone, and saying so beats
 * printing the empty state or the gap error replay would give. Only keys are read: a damaged head is
 * recovery's business.
 */
export async function checkReachable(store: Store, scope: Scope, at: number): Promise<void> {
  const seqIn = (key: string, prefix: string) => Number(key.slice(prefix.length, prefix.length + seqPart(0).length));
  let firstLog: number | undefined;
  for await (const key of store.keys(keys.logPrefix(scope), { limit: 1 })) firstLog = seqIn(key, keys.logPrefix(scope));
  if (firstLog === 1) return;
  const heads: number[] = [];
  for await (const key of store.keys(keys.snapshotPrefix(scope))) {
    if (key.endsWith('/head')) heads.push(seqIn(key, keys.snapshotPrefix(scope)));
  }
  if (heads.some((seq) => seq <= at)) return;
  const kept = firstLog === undefined ? 'no log records are kept' : `the log before seq ${firstLog} is not kept`;
  const earliest = heads.length > 0 ? `; the earliest reachable position is seq ${Math.min(...heads)}` : '';
  throw new DumpError(`cannot replay to seq ${at}: ${kept} (trimmed by LOG_RETENTION, or the directory was restored from a dump) and no snapshot at or before seq ${at} is kept${earliest}`);
}
