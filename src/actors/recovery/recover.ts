import { planMigration } from '../../../machines/versions.js';
import { keys } from '../../../snapshots/keys.js';
import type { Snapshot } from '../../../snapshots/records.js';
import { readLatestSnapshot, readLog, type RecoveryNotice } from '../../../snapshots/recovery.js';
import type { Store } from '../../../snapshots/store.js';
import type { Model } from '../actor-model.js';

/** What recovery rebuilt: the state, the sequence number it is at, and anything it worked around. */
export interface Recovered<S> {
  state: S;
  seq: number;
  snapshotSeq: number;
  /** Stored size of the snapshot recovered from (0 without one). */
  snapshotBytes: number;
  replayed: number;
  notices: RecoveryNotice[];
}

/**
 * A snapshot written under machine versions this code cannot read (newer code, or an old version without a
 * migration). The scope is not served rather than read as if current; the message names the key and why.
 */
export class IncompatibleSnapshotError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`snapshot at key ${JSON.stringify(key)} cannot be read by this version of flagpole: ${reason}`);
    this.name = 'IncompatibleSnapshotError';
  }
}

/**
 * Rebuilds a state from its latest good snapshot plus the log after it, evolving recorded events (not
 * re-deciding commands, so ids and times come back exactly). The snapshot's machine versions are checked
 * against the model's: items are migrated when a migration exists, refused otherwise. `atMost` stops at an
 * earlier sequence number: the state as it was then.
 */
export async function recoverState<S, D, M, I>(
  store: Store,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any command/event type: only evolve is used
  model: Model<S, D, any, any, any>,
  fromSnapshot: (meta: M, items: I[]) => S,
  empty: () => S,
  atMost = Infinity,
): Promise<Recovered<S>> {
  const notices: RecoveryNotice[] = [];
  const snapshot = await migratedSnapshot<M, I>(store, model, notices, atMost);
  let state = snapshot ? fromSnapshot(snapshot.head.meta, snapshot.items) : empty();
  const snapshotSeq = snapshot?.head.seq ?? 0;
  let seq = snapshotSeq;
  let draft = model.fork(state);
  let replayed = 0;
  for await (const record of readLog<unknown, unknown>(store, model.scope, snapshotSeq, atMost)) {
    for (const event of record.events) model.evolve(draft, event);
    seq = record.seq;
    replayed += 1;
    // Publish now and then so a long replay does not build one huge overlay.
    if (replayed % 10_000 === 0) {
      state = model.publish(state, draft);
      draft = model.fork(state);
    }
  }
  state = model.publish(state, draft);
  return { state, seq, snapshotSeq, snapshotBytes: snapshot?.bytes ?? 0, replayed, notices };
}

/**
 * The newest good snapshot at or before `atMost`, its items migrated to the model's machine versions; null
 * without one. Versions it cannot read throw {@link IncompatibleSnapshotError}.
 */
export async function migratedSnapshot<M, I>(
  store: Store,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any model: only its scope and machine versions are used
  model: Model<any, any, any, any, any>,
  notices: RecoveryNotice[],
  atMost = Infinity,
): Promise<Snapshot<M, I> | null> {
  const snapshot = await readLatestSnapshot<M, I>(store, model.scope, notices, atMost);
  if (!snapshot) return null;
  const plan = planMigration(snapshot.head.machines, model.machines);
  if (!plan.ok) throw new IncompatibleSnapshotError(keys.snapshotHead(model.scope, snapshot.head.seq), plan.reason);
  let items = snapshot.items;
  for (const migrate of plan.migrations) items = items.map((item) => migrate(item) as I);
  return { head: snapshot.head, items, bytes: snapshot.bytes };
}
