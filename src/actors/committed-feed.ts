import type { Scope } from '../../snapshots/keys.js';
import type { CommittedRecord } from './actor-model.js';
import { DEFAULT_HISTORY_BOUNDS, FeedHistory, type HistoryBounds } from './feed-history.js';

/** One committed batch of one scope, with the service's revision after it. */
export interface CommittedBatch {
  scope: Scope;
  records: readonly CommittedRecord[];
  /** The revision once this batch is counted. */
  revision: number;
}

export type FeedListener = (batch: CommittedBatch) => void;

/**
 * What the actors committed, as it is committed: every batch, after it is on disk, in commit order, to
 * every subscriber (client caches, streams, the console's live view). Never built by polling or diffing
 * state.
 *
 * The **revision** is one number for the whole service that only grows, also across restarts: on one
 * process the sum of every log's sequence number (each is durable and grows by one per record); on a store
 * several nodes share, the store's revision, the same on every node (`cluster/sequencer.ts`). It moves on
 * every committed change. A listener must only take note and return: it runs before the writers get their answers.
 *
 * @example const stop = registry.feed.subscribe(({ revision, scope }) => invalidate(scope, revision));
 */
export class CommittedFeed {
  private readonly listeners = new Set<FeedListener>();
  private readonly closeListeners = new Set<() => void>();
  /** The recent changes SDKs can see, bounded, for deltas (see `FeedHistory`). */
  readonly history: FeedHistory;

  constructor(
    /** The revision at start: the sum of the recovered sequence numbers. */
    private current = 0,
    historyBounds: HistoryBounds = DEFAULT_HISTORY_BOUNDS,
  ) {
    this.history = new FeedHistory(historyBounds);
  }

  get revision(): number {
    return this.current;
  }

  /** How many listeners follow the feed now (SDK streams, client caches, the console's live pages). */
  get subscribers(): number {
    return this.listeners.size;
  }

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` once when the registry closes (streams end cleanly then); returns the unsubscribe. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Tells the close listeners that no more batches will come (the registry is closing). */
  close(): void {
    const listeners = [...this.closeListeners];
    this.closeListeners.clear();
    for (const listener of listeners) listener();
  }

  /**
   * Keeps a committed batch in the history and passes it on, as of `revision` (the actors call this through
   * `onCommit`, in the order of revisions: this node's batches and other nodes' alike).
   */
  publish(scope: Scope, records: readonly CommittedRecord[], revision: number): void {
    this.current = revision;
    this.history.record(scope, records, this.current);
    const batch: CommittedBatch = { scope, records, revision: this.current };
    for (const listener of this.listeners) listener(batch);
  }

  /**
   * Resolves true once the revision is at least `revision`, or false after `waitMs` if it is not by then.
   *
   * @example if (!(await feed.reached(presented, 1000))) answerNoChange();
   */
  reached(revision: number, waitMs: number): Promise<boolean> {
    if (this.current >= revision) return Promise.resolve(true);
    if (waitMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (reached: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(reached);
      };
      const unsubscribe = this.subscribe((batch) => { if (batch.revision >= revision) done(true); });
      const timer = setTimeout(() => done(false), waitMs);
    });
  }

  /** Sets the revision at start: the sum of the recovered sequence numbers, or the shared store's head. */
  startAt(revision: number): void {
    this.current = revision;
  }
}
