import { readLatestSnapshot, readLog, type RecoveryNotice } from '../../snapshots/recovery.js';
import type { Store } from '../../snapshots/store.js';
import type { Model } from './command-actor.js';

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
 * Rebuilds a state from its latest good snapshot plus the log after it, evolving recorded events (not
 * re-deciding commands, so ids and times come back exactly). `atMost` stops at an earlier sequence
 * number: the state as it was then.
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
  const snapshot = await readLatestSnapshot<M, I>(store, model.scope, notices, atMost);
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
