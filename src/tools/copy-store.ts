import { DumpError, openForReading } from '../../snapshots/dump-format.js';
import { isEmpty, locationLabel, openStore, type StoreLocation } from '../../snapshots/open-store.js';
import { keys } from '../../snapshots/keys.js';
import { stableStringify } from '../../snapshots/stable-json.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import { dumpDataDir } from './dump.js';

/** A copy that cannot be made, or whose check failed; the message says which and what to do. */
export class CopyError extends Error {
  override name = 'CopyError';
}

/** What a copy wrote. */
export interface CopySummary {
  keys: number;
  /** Of those, log records (the history comes along whole). */
  records: number;
  projects: number;
}

/** Bytes of values per write: large enough to be quick, small enough to keep memory flat. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_KEYS = 2000;

/**
 * Copies a whole installation between stores (LevelDB and PostgreSQL, either way, or two of the same kind):
 * every key, log records, snapshots, registrations, usage and sessions included, into an EMPTY target; the
 * registrations go last, so a copy cut short is not an installation (and, not empty, is refused by the next
 * copy: empty it and copy again). Then both are dumped as the service would recover them and must be equal,
 * the check `restore` makes. Both stores must be stopped (their locks refuse a running service).
 *
 * @example await copyStore({ dataDir: './data' }, { dataDir: '', database }, (n) => bar.update(n));
 */
export async function copyStore(from: StoreLocation, to: StoreLocation, onKeys?: (copied: number) => void): Promise<CopySummary> {
  const source = await openForReading(from);
  let summary: CopySummary;
  try {
    const target = await openTarget(to);
    try {
      summary = await copyKeys(source, target, onKeys);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  const [before, after] = await Promise.all([dumpDataDir(from), dumpDataDir(to)]);
  if (stableStringify(before) !== stableStringify(after)) {
    throw new CopyError(`the copy in ${locationLabel(to)} does not recover the state of ${locationLabel(from)} (their dumps differ): do not use it; empty it and copy again`);
  }
  return summary;
}

async function openTarget(to: StoreLocation): Promise<Store> {
  let target: Store;
  try {
    target = await openStore(to, { alone: true });
  } catch (error) {
    throw new CopyError(`cannot open ${locationLabel(to)}: ${(error as Error).message}`);
  }
  if (!(await isEmpty(target))) {
    await target.close();
    throw new CopyError(`${target.label} is not empty: copy-store only writes into an empty data directory or database`);
  }
  return target;
}

/** Every key of `source` into `target`, in key order, in unsynced batches, registrations last and synced. */
async function copyKeys(source: Store, target: Store, onKeys?: (copied: number) => void): Promise<CopySummary> {
  const summary: CopySummary = { keys: 0, records: 0, projects: 0 };
  const registrations: BatchOp[] = [];
  let batch: BatchOp[] = [];
  let bytes = 0;
  const write = async () => {
    if (batch.length === 0) return;
    await target.writeInSlices(batch, { sync: false });
    summary.keys += batch.length;
    onKeys?.(summary.keys);
    batch = [];
    bytes = 0;
  };
  for await (const [key, value] of source.entries('', { highWaterMarkBytes: 1024 * 1024 })) {
    if (key.startsWith(keys.projectsPrefix)) {
      registrations.push({ type: 'put', key, value });
      continue;
    }
    if (/\/log\/\d{16}$/.test(key)) summary.records += 1;
    batch.push({ type: 'put', key, value });
    bytes += key.length + value.length;
    if (bytes >= BATCH_BYTES || batch.length >= BATCH_KEYS) await write();
  }
  await write();
  await target.commit(registrations);
  summary.keys += registrations.length;
  summary.projects = registrations.length;
  onKeys?.(summary.keys);
  return summary;
}

export { DumpError };
