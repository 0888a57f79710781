import type { HeldTurn, SharedLog, SharedRow } from '../../../snapshots/shared-log.js';

/** A batch this node committed, waiting for its turn in the global order. */
interface OwnBatch {
  first: number;
  last: number;
  publish: (revision: number) => void;
  done: () => void;
}

/** What a {@link Sequencer} applies records through, and where it reads what other nodes committed. */
export interface SequencerParts {
  /** The shared log; null on a store one process owns (LevelDB): then only this node writes. */
  shared: SharedLog | null;
  /** Applies a record another node committed, in order (the registry routes it to its scope's actor). */
  applyForeign: (row: SharedRow) => Promise<void> | void;
  /** Told of a failure to read the shared log (it is tried again on the next signal). */
  failed: (error: unknown) => void;
}

/** Most records read from the shared log per trip. */
const PAGE = 500;
/** After a failed read of the shared log, the next try (while something is left to apply). */
const RETRY_MS = 250;

/** What {@link Sequencer.own} answers when it published at once: nothing to wait for. */
export const PUBLISHED: Promise<void> = Promise.resolve();

/** The end of a mark that was not made (a store without a shared log). */
const NO_MARK = (): void => {};

/**
 * How long after another node's record was applied here (or a write decided on this node's state was refused
 * because another node had committed) batches catch up with the store before they are decided, ms.
 */
export const QUIET_MS = 1000;

/**
 * Puts every committed change of this node in the one global order of the store's revisions, whichever node
 * wrote it (docs/architecture.md "Several nodes"). The node's revision ({@link applied}) only grows, and a
 * state that shows revision N holds exactly the records up to N, as on every other node.
 *
 * - An actor marks the batch it is committing ({@link begin}), so a record of that scope read from the
 *   shared log waits for the batch's outcome (it may be the batch itself).
 * - Its committed batch is published by {@link own} once every earlier revision is applied: what other
 *   nodes committed before it is read from the shared log and applied first.
 * - {@link committed} (a notification) and {@link catchUp} (before a decision) read and apply what other
 *   nodes committed.
 *
 * On LevelDB (no shared log) there is one writer: a batch's records take the next revisions at once.
 *
 * @example const end = sequencer.begin('p/default'); const receipt = await store.commit(ops); const published = sequencer.own('p/default', receipt.revs, records.length, publish); end(); await published;
 */
export class Sequencer {
  private applied: number;
  /** The highest revision known committed (a notification, a head read, an own batch). */
  private wanted: number;
  private readonly owns = new Map<number, OwnBatch>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly caughtUp: { upTo: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private draining = false;
  private again = false;
  private held = 0;
  private headRead: Promise<number> | null = null;
  private nextHeadRead: Promise<number> | null = null;
  /** When (performance.now()) another node was last seen writing: a record of it applied, or a basis refused. */
  private lastForeign = Number.NEGATIVE_INFINITY;

  constructor(private readonly parts: SequencerParts, start: number, private readonly now: () => number = () => performance.now()) {
    this.applied = start;
    this.wanted = start;
  }

  /** Sets the revision the node starts at (once recovered), before any batch. */
  startAt(revision: number): void {
    this.applied = revision;
    this.wanted = Math.max(this.wanted, revision);
  }

  /** The node's revision: every change up to it is applied, none after it. */
  get revision(): number {
    return this.applied;
  }

  /** Whether other nodes may write (the store is shared). */
  get shared(): boolean {
    return this.parts.shared !== null;
  }

  /**
   * Whether a batch may be decided on this node's state as it is, and written with that revision as its basis
   * (`CommitOptions.basis`: refused if another node committed since), rather than after a read of the head:
   * on a shared store no other node has been seen writing for {@link QUIET_MS}.
   */
  get optimistic(): boolean {
    return this.parts.shared !== null && this.now() - this.lastForeign >= QUIET_MS;
  }

  /** Notes that a write decided on this node's state was refused: another node committed since. */
  refused(): void {
    this.lastForeign = this.now();
  }

  /** Marks a batch of `scope` (its key part) as being committed; call the returned function once its outcome is known. */
  begin(scope: string): () => void {
    // Only a shared log's reader waits on the mark: without one there is nothing to make.
    if (!this.parts.shared) return NO_MARK;
    let end = () => {};
    const settled = new Promise<void>((resolve) => { end = resolve; });
    this.inFlight.set(scope, settled);
    return () => {
      if (this.inFlight.get(scope) === settled) this.inFlight.delete(scope);
      end();
    };
  }

  /**
   * Publishes a batch this node committed, as revisions `revs` (null: a store without a shared log, where the
   * batch's `count` records take the next revisions): `publish(revision)` runs once every earlier revision is
   * applied. Resolves once it has run (or, revs unknown on a shared log, once the records are applied as read
   * back from it, without `publish`).
   */
  own(revs: readonly number[] | null, count: number, publish: (revision: number) => void): Promise<void> {
    // On a shared log, revs unknown (a commit whose outcome was found out, whose revs could not be read back):
    // the records come back from the log as another node's would, in their place; the draft is not published.
    if (revs === null && this.parts.shared) return this.catchUp();
    if (revs === null || revs.length === 0) {
      if (revs === null) this.applied += count;
      this.wanted = Math.max(this.wanted, this.applied);
      publish(this.applied);
      return PUBLISHED;
    }
    const first = revs[0]!;
    const last = revs[revs.length - 1]!;
    return new Promise((resolve) => {
      this.owns.set(first, { first, last, publish, done: resolve });
      this.wanted = Math.max(this.wanted, last);
      this.kick();
    });
  }

  /** Waits for the turn at appending to `scope`'s log across nodes (`SharedLog.turn`); only on a shared log. */
  turn(scope: string): Promise<HeldTurn> {
    if (!this.parts.shared) return Promise.reject(new Error('a turn is only taken on a shared log'));
    return this.parts.shared.turn(scope);
  }

  /**
   * Test seam: stops reading other nodes' records until the returned function is called (a node falling
   * behind, as one whose notifications are slow).
   */
  hold(): () => void {
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      this.kick();
    };
  }

  /**
   * A notification that revision `rev` is committed: as {@link committed}, once the batches this node has in
   * flight now are settled. The revision is often one of theirs (every commit notifies its own node too), and
   * once they are registered (`own`) their records are published, not read back from the shared log.
   */
  notified(rev: number): void {
    if (rev <= this.wanted) return;
    if (this.inFlight.size === 0) return this.committed(rev);
    void Promise.all(this.inFlight.values()).then(() => this.committed(rev));
  }

  /** Notes that revision `rev` is committed somewhere (a head read, a notification) and applies what is new. */
  committed(rev: number): void {
    if (rev <= this.wanted) return;
    this.wanted = rev;
    this.kick();
  }

  /**
   * Reads the store's head (or takes `known`, a head read after the call was due) and resolves once every
   * change up to it is applied: what any node committed before the call is then in this node's state.
   * Immediate without a shared log.
   */
  async catchUp(known?: number): Promise<void> {
    if (!this.parts.shared) return;
    const head = known ?? await this.headAfterNow();
    if (head <= this.applied) return;
    await new Promise<void>((resolve, reject) => {
      this.caughtUp.push({ upTo: head, resolve, reject });
      this.committed(head);
      this.kick();
    });
  }

  /**
   * The store's head, read by a query that starts after this call: callers meanwhile share the next read, so
   * at most one head query runs at a time, whatever the number of callers (a burst of unknown tokens costs
   * the database one query per round trip, not one per request).
   */
  private headAfterNow(): Promise<number> {
    if (this.headRead === null) return this.readHead();
    this.nextHeadRead ??= this.headRead.catch(() => undefined).then(() => {
      this.nextHeadRead = null;
      return this.readHead();
    });
    return this.nextHeadRead;
  }

  private readHead(): Promise<number> {
    const read = this.parts.shared!.head();
    this.headRead = read;
    const done = () => { if (this.headRead === read) this.headRead = null; };
    read.then(done, done);
    return read;
  }

  private kick(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    void this.drain();
  }

  /** Applies, in revision order, own batches and what the shared log holds, up to what is known committed. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      do {
        this.again = false;
        while (await this.step());
      } while (this.again);
      this.wake();
    } catch (error) {
      this.parts.failed(error);
      this.wake(error);
      setTimeout(() => { if (this.wanted > this.applied || this.owns.size > 0) this.kick(); }, RETRY_MS).unref();
    } finally {
      this.draining = false;
    }
  }

  /** One step toward {@link wanted}; false when there is nothing to do now. */
  private async step(): Promise<boolean> {
    const next = this.applied + 1;
    const own = this.owns.get(next);
    if (own) {
      this.publishOwn(own);
      return true;
    }
    const nextOwn = this.smallestOwn();
    const target = nextOwn === null ? this.wanted : nextOwn - 1;
    if (target <= this.applied || !this.parts.shared || this.held > 0) return false;
    const rows = await this.parts.shared.since(this.applied, { upTo: target, limit: PAGE });
    // Committed and none left to read below the target: the revisions between were deleted since.
    if (rows.length === 0) this.applied = target;
    for (const row of rows) await this.take(row);
    return true;
  }

  /** Applies `row` unless it is this node's own (published by `own`) or applied already. */
  private async take(row: SharedRow): Promise<void> {
    if (row.rev <= this.applied) return;
    // A batch of this scope being committed may be this very record: wait for its outcome.
    const pending = this.inFlight.get(row.scope);
    if (pending) await pending;
    const own = this.owns.get(row.rev);
    if (own) return this.publishOwn(own);
    if (row.rev <= this.applied) return;
    this.lastForeign = this.now();
    await this.parts.applyForeign(row);
    this.applied = row.rev;
  }

  private publishOwn(own: OwnBatch): void {
    this.owns.delete(own.first);
    this.applied = own.last;
    own.publish(own.last);
    own.done();
  }

  private smallestOwn(): number | null {
    let smallest: number | null = null;
    for (const first of this.owns.keys()) if (smallest === null || first < smallest) smallest = first;
    return smallest;
  }

  /** Resolves the {@link catchUp} callers whose head is reached (or rejects them all on a failed read). */
  private wake(error?: unknown): void {
    for (let i = this.caughtUp.length - 1; i >= 0; i -= 1) {
      const waiter = this.caughtUp[i]!;
      if (error !== undefined) waiter.reject(error);
      else if (this.applied >= waiter.upTo) waiter.resolve();
      else continue;
      this.caughtUp.splice(i, 1);
    }
  }
}
