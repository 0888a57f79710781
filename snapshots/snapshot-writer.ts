import { encode } from './codec.js';
import { keys, type Scope } from './keys.js';
import type { SnapshotHead } from './records.js';
import type { BatchOp, Store } from './store.js';

/** Items per chunk: small enough that encoding one chunk never blocks the event loop for long. */
export const SNAPSHOT_CHUNK_ITEMS = 1000;

const nextTick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Writes a snapshot in chunks, yielding to the event loop between chunks so requests keep flowing while a
 * large project is saved. Items must be immutable (they are: state records are replaced, never mutated), so
 * the array captured at `head.seq` stays a consistent picture however long the write takes. The head goes
 * last in a synced write; until then the previous snapshot is the latest.
 */
export async function writeSnapshot(store: Store, scope: Scope, head: Omit<SnapshotHead, 'chunks' | 'items'>, items: readonly unknown[]): Promise<void> {
  let chunk = 0;
  for (let start = 0; start < items.length; start += SNAPSHOT_CHUNK_ITEMS) {
    const ops: BatchOp[] = [
      { type: 'put', key: keys.snapshotChunk(scope, head.seq, chunk), value: encode(items.slice(start, start + SNAPSHOT_CHUNK_ITEMS)) },
    ];
    await store.writeUnsynced(ops);
    chunk += 1;
    await nextTick();
  }
  const full: SnapshotHead = { ...head, chunks: chunk, items: items.length };
  await store.commit([{ type: 'put', key: keys.snapshotHead(scope, head.seq), value: encode(full) }]);
}

/**
 * Deletes snapshots older than the newest `keep` ones, and, when `retainLog` is a number, log records more than
 * `retainLog` records before the oldest kept snapshot (recovery never needs them; history loses them).
 */
export async function pruneSnapshots(store: Store, scope: Scope, keep: number, retainLog: number | 'all'): Promise<void> {
  const heads: number[] = [];
  for await (const [key] of store.entries(keys.snapshotPrefix(scope), { reverse: true })) {
    if (!key.endsWith('/head')) continue;
    heads.push(Number(key.slice(keys.snapshotPrefix(scope).length, key.length - '/head'.length)));
  }
  const ops: BatchOp[] = [];
  const oldestKept = heads.slice(0, keep).at(-1);
  if (oldestKept !== undefined) {
    // Every key older than the oldest kept head: older snapshots, and also the chunks of a snapshot whose head
    // was never written (the process died mid-write), which no head would ever lead to.
    const keptFrom = keys.snapshotSeqPrefix(scope, oldestKept);
    for await (const [key] of store.entries(keys.snapshotPrefix(scope))) {
      if (key >= keptFrom) break;
      ops.push({ type: 'del', key });
    }
  }
  if (retainLog !== 'all' && oldestKept !== undefined) {
    const upTo = oldestKept - retainLog;
    if (upTo > 0) {
      for await (const [key] of store.entries(keys.logPrefix(scope))) {
        if (key > keys.log(scope, upTo)) break;
        ops.push({ type: 'del', key });
      }
    }
  }
  if (ops.length > 0) await store.writeUnsynced(ops);
}
