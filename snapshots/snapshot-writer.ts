import { encode, encodeJson } from './codec.js';
import { keys, seqPart, type Scope } from './keys.js';
import type { SnapshotHead } from './records.js';
import { spreadSnapshots } from './snapshot-spread.js';
import type { BatchOp, Store } from './store.js';

/**
 * Target size of a chunk, in characters of JSON: small enough that serializing one never holds the event
 * loop for long (a few milliseconds), whatever the size of the items.
 */
export const SNAPSHOT_CHUNK_CHARS = 64 * 1024;

const nextTick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Writes a snapshot in chunks, yielding to the event loop between chunks so requests keep flowing while a
 * large project is saved. Items must be immutable (they are: state records are replaced, never mutated), so
 * the array captured at `head.seq` stays a consistent picture however long the write takes. The head goes
 * last in a synced write; until then the previous snapshot is the latest. Returns the bytes written.
 */
export async function writeSnapshot(store: Store, scope: Scope, head: Omit<SnapshotHead, 'chunks' | 'items'>, items: readonly unknown[]): Promise<number> {
  let chunk = 0;
  let bytes = 0;
  let parts: string[] = [];
  let size = 0;
  const flush = async () => {
    const value = encodeJson(`[${parts.join(',')}]`);
    await store.writeUnsynced([{ type: 'put', key: keys.snapshotChunk(scope, head.seq, chunk), value }]);
    bytes += value.length;
    chunk += 1;
    parts = [];
    size = 0;
    await nextTick();
  };
  for (const item of items) {
    const json = JSON.stringify(item);
    parts.push(json);
    size += json.length;
    if (size >= SNAPSHOT_CHUNK_CHARS) await flush();
  }
  if (parts.length > 0) await flush();
  const full = encode({ ...head, chunks: chunk, items: items.length } satisfies SnapshotHead);
  await store.commit([{ type: 'put', key: keys.snapshotHead(scope, head.seq), value: full }]);
  return bytes + full.length;
}

/** Which snapshots a prune keeps: the `newest` ones, and up to `spread` older ones spread over the log before them. */
export interface SnapshotsKept {
  newest: number;
  spread: number;
}

/**
 * Keeps the newest `kept.newest` snapshots and up to `kept.spread` older ones spread over the log
 * ({@link spreadSnapshots}), and deletes every other snapshot key below the newest head, chunks of a snapshot
 * whose head was never written (the process died mid-write) included. When `retainLog` is a number, log
 * records more than `retainLog` records before the oldest of the newest snapshots are deleted, and so is every
 * older snapshot the trimmed log could not replay forward from.
 */
export async function pruneSnapshots(store: Store, scope: Scope, kept: SnapshotsKept, retainLog: number | 'all'): Promise<void> {
  const prefix = keys.snapshotPrefix(scope);
  const seqOf = (key: string) => Number(key.slice(prefix.length, prefix.length + seqPart(0).length));
  const heads: number[] = [];
  for await (const key of store.keys(prefix)) if (key.endsWith('/head')) heads.push(seqOf(key));
  const newest = heads.slice(Math.max(0, heads.length - kept.newest));
  if (newest.length === 0) return;
  // Log records up to `upTo` go: a snapshot before it could show its own moment only, and is not kept.
  const upTo = retainLog === 'all' ? 0 : Math.max(0, newest[0]! - retainLog);
  const older = heads.slice(0, heads.length - newest.length).filter((seq) => seq >= upTo);
  const keep = new Set([...spreadSnapshots(older, kept.spread, upTo, newest[0]!), ...newest]);
  const last = newest.at(-1)!;
  const ops: BatchOp[] = [];
  for await (const key of store.keys(prefix)) {
    const seq = seqOf(key);
    if (seq < last && !keep.has(seq)) ops.push({ type: 'del', key });
  }
  if (upTo > 0) {
    for await (const key of store.keys(keys.logPrefix(scope))) {
      if (key > keys.log(scope, upTo)) break;
      ops.push({ type: 'del', key });
    }
  }
  if (ops.length > 0) await store.writeUnsynced(ops);
}
