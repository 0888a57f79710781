import { CorruptRecordError, decode } from './codec.js';
import { keys, type Scope } from './keys.js';
import type { LogRecord, Snapshot, SnapshotHead } from './records.js';
import type { Store } from './store.js';

/** What recovery found wrong but worked around (a damaged snapshot), for the operator's log. */
export interface RecoveryNotice {
  key: string;
  message: string;
}

/**
 * Reads the newest snapshot whose head and chunks all decode; a damaged one is reported in `notices` and
 * the one before it is tried (recovery then replays more of the log).
 */
export async function readLatestSnapshot<M, I>(store: Store, scope: Scope, notices: RecoveryNotice[] = [], atMost = Infinity): Promise<Snapshot<M, I> | null> {
  // Keys of newer snapshots are not read at all: their chunks are megabytes at 10,000 flags, and a past view asks for old ones.
  const range = atMost === Infinity ? { reverse: true } : { reverse: true, lte: keys.snapshotHead(scope, atMost) };
  for await (const [key, value] of store.entries(keys.snapshotPrefix(scope), range)) {
    if (!key.endsWith('/head')) continue;
    try {
      const head = decode<SnapshotHead<M>>(key, value);
      if (head.seq > atMost) continue;
      const items: I[] = [];
      let bytes = value.length;
      for (let chunk = 0; chunk < head.chunks; chunk += 1) {
        const chunkKey = keys.snapshotChunk(scope, head.seq, chunk);
        const stored = await store.get(chunkKey);
        if (stored === undefined) throw new CorruptRecordError(chunkKey, 'missing chunk');
        bytes += stored.length;
        for (const item of decode<I[]>(chunkKey, stored)) items.push(item);
      }
      if (items.length !== head.items) throw new CorruptRecordError(key, `expected ${head.items} items, found ${items.length}`);
      return { head, items, bytes };
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      notices.push({ key: error.key, message: `${error.message}; falling back to an older snapshot` });
    }
  }
  return null;
}

/** How many items the snapshot after record `seq` holds, from its head alone; null when it is missing or damaged. */
export async function snapshotItems(store: Store, scope: Scope, seq: number): Promise<number | null> {
  const key = keys.snapshotHead(scope, seq);
  const value = await store.get(key);
  if (value === undefined) return null;
  try {
    return decode<SnapshotHead>(key, value).items;
  } catch (error) {
    if (error instanceof CorruptRecordError) return null;
    throw error;
  }
}

/** A log is read front to back: 256 KiB per trip to LevelDB's thread rather than its 16 KiB, for long replays (past views, recovery). */
const LOG_READ_AHEAD_BYTES = 2 ** 18;

/**
 * Every log record after `afterSeq` (up to `atMost`), in order. A record that does not decode, or a gap in the
 * sequence, throws {@link CorruptRecordError}: recovering past it would silently lose acknowledged writes.
 */
export async function* readLog<C, E>(store: Store, scope: Scope, afterSeq: number, atMost = Infinity): AsyncGenerator<LogRecord<C, E>> {
  let expected = afterSeq + 1;
  // Past `atMost` nothing is decoded: a damaged record there does not stop a read of what comes before it.
  const last = atMost === Infinity ? null : keys.log(scope, atMost);
  for await (const [key, value] of store.entries(keys.logPrefix(scope), { gt: keys.log(scope, afterSeq), highWaterMarkBytes: LOG_READ_AHEAD_BYTES })) {
    if (last !== null && key > last) return;
    const record = decode<LogRecord<C, E>>(key, value);
    if (record.seq > atMost) return;
    if (record.seq !== expected) throw new CorruptRecordError(key, `expected sequence ${expected}, found ${record.seq}`);
    expected += 1;
    yield record;
  }
}
