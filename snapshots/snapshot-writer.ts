import { encode, encodeJson } from './codec.js';
import { keys, type Scope } from './keys.js';
import type { SnapshotHead } from './records.js';
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

/**
 * Deletes snapshots older than the newest `keep` ones, and, when `retainLog` is a number, log records more than
 * `retainLog` records before the oldest kept snapshot (recovery never needs them; history loses them).
 */
export async function pruneSnapshots(store: Store, scope: Scope, keep: number, retainLog: number | 'all'): Promise<void> {
  const heads: number[] = [];
  for await (const key of store.keys(keys.snapshotPrefix(scope), { reverse: true })) {
    if (!key.endsWith('/head')) continue;
    heads.push(Number(key.slice(keys.snapshotPrefix(scope).length, key.length - '/head'.length)));
  }
  const ops: BatchOp[] = [];
  const oldestKept = heads.slice(0, keep).at(-1);
  if (oldestKept !== undefined) {
    // Every key older than the oldest kept head: older snapshots, and also the chunks of a snapshot whose head
    // was never written (the process died mid-write), which no head would ever lead to.
    const keptFrom = keys.snapshotSeqPrefix(scope, oldestKept);
    for await (const key of store.keys(keys.snapshotPrefix(scope))) {
      if (key >= keptFrom) break;
      ops.push({ type: 'del', key });
    }
  }
  if (retainLog !== 'all' && oldestKept !== undefined) {
    const upTo = oldestKept - retainLog;
    if (upTo > 0) {
      for await (const key of store.keys(keys.logPrefix(scope))) {
        if (key > keys.log(scope, upTo)) break;
        ops.push({ type: 'del', key });
      }
    }
  }
  if (ops.length > 0) await store.writeUnsynced(ops);
}
