import { scopePart } from '../../snapshots/keys.js';
import type { LogRecord } from '../../snapshots/records.js';
import { LogConflictError, StaleBasisError, type BatchOp, type Store } from '../../snapshots/store.js';
import type { CallerRights } from '../domain/context.js';
import { fail, refuse, type Decision } from '../domain/errors.js';
import type { Command, Model, Replies } from './actor-model.js';
import { DEFAULT_WRITE_TIMEOUT_MS, type ActorOptions } from './actor-options.js';
import { LogGapError } from './cluster/log-gap-error.js';
import { LogTurn } from './cluster/log-turn.js';
import { PUBLISHED, type Sequencer } from './cluster/sequencer.js';
import { decideBatch, type DecidedBatch, type Envelope } from './decide-batch.js';
import { within } from './within.js';
import { Mailbox } from './mailbox.js';
import { SnapshotSchedule } from './snapshot-schedule.js';
import { StorageError } from './storage-error.js';
import { WriteStall } from './write-stall.js';

/** What a {@link CommandActor} is made of. */
export interface CommandActorParts<S, D, C extends Command, E, RM extends Replies<C>> {
  store: Store;
  model: Model<S, D, C, E, RM>;
  /** The last committed state (as recovered, or empty). */
  state: S;
  /** Sequence number of the last record in the log. */
  seq: number;
  options: ActorOptions;
  /** Puts the actor's batches in the node's global order (and catches up with other nodes before deciding). */
  sequencer: Sequencer;
  /** Extra ops written with the first batch (a project's registration). */
  firstOps?: BatchOp[] | undefined;
  /** Stored size of the latest snapshot (as recovered); 0 when there is none. */
  snapshotBytes?: number | undefined;
}

/**
 * An actor with a mailbox: commands run one at a time in arrival order against a draft of the state, a
 * batch of them is written as one synced LevelDB batch (log records), and only then does the draft become
 * the committed state that reads see and do the replies go out. Serializing through the mailbox is what
 * makes checks such as "name unused" or "one owner left" hold under concurrent requests.
 *
 * @example const actor = new CommandActor({ store, model, state: emptyProject('p'), seq: 0, options });
 */
export class CommandActor<S, D, C extends Command, E, RM extends Replies<C>> {
  /** The last committed state; read it freely, it never holds an unwritten change. */
  public state: S;
  /** Sequence number of the last record in the log. */
  public seq: number;
  private readonly store: Store;
  private readonly model: Model<S, D, C, E, RM>;
  private readonly options: ActorOptions;
  private readonly sequencer: Sequencer;
  private firstOps: BatchOp[];
  private readonly snapshots: SnapshotSchedule;
  private readonly mailbox: Mailbox<C, E>;
  /** Turns at this scope's log across nodes, taken while another node writes it too. */
  private readonly turn: LogTurn;
  /** A batch past its write timeout, still waiting for the store: new commands are refused at once. */
  private readonly stall: WriteStall;
  private closed = false;
  /** Why this actor takes no command (its log could not be fully recovered); null: it does. */
  private readOnly: string | null = null;

  constructor(parts: CommandActorParts<S, D, C, E, RM>) {
    this.store = parts.store;
    this.model = parts.model;
    this.state = parts.state;
    this.seq = parts.seq;
    this.options = parts.options;
    this.sequencer = parts.sequencer;
    this.firstOps = parts.firstOps ?? [];
    this.snapshots = new SnapshotSchedule({ store: parts.store, scope: parts.model.scope, machines: parts.model.machines, options: parts.options, bytes: parts.snapshotBytes ?? 0 });
    this.mailbox = new Mailbox(parts.options.maxBatch, (batch) => this.runBatch(batch));
    this.turn = new LogTurn(parts.sequencer, scopePart(parts.model.scope));
    this.stall = new WriteStall({
      refuseQueued: (error) => this.mailbox.refuseQueued(error), writesTo: parts.store.writesTo, scope: parts.model.scope, log: parts.options.log, writeTimeoutMs: this.writeTimeoutMs,
    });
  }

  /**
   * Queues a command; resolves with its decision once it (and its batch) is durable. The reply's type is the
   * one the model's reply map gives the command's type.
   */
  send<K extends C>(command: K, by: string, rights?: CallerRights): Promise<Decision<E, RM[K['type']]>> {
    if (this.closed) return Promise.reject(new StorageError(new Error('actor closed'), 'failed', undefined, this.store.writesTo));
    if (this.readOnly !== null) return Promise.resolve(refuse(fail('Unavailable', this.readOnly)));
    if (this.stall.stalled) return Promise.reject(this.stall.refusal());
    // The envelope forgets the reply type; the model decided it for this very command.
    return this.mailbox.post(command, by, rights) as Promise<Decision<E, RM[K['type']]>>;
  }

  /**
   * Refuses every command from now on with a 503 `Unavailable` carrying `reason`, and never snapshots: the
   * state was recovered only in part, and a write or snapshot would build on what is missing.
   */
  refuseWrites(reason: string): void {
    this.readOnly = reason;
  }

  /** Why this actor refuses commands, or null. */
  get readOnlyReason(): string | null {
    return this.readOnly;
  }

  /** Log records written since the last snapshot (what a restart would replay on top of it). */
  get recordsSinceSnapshot(): number {
    return this.snapshots.recordsSince;
  }

  /** How many commands have been sent so far: a command with an `arrival` up to this one was sent before now. */
  get arrivals(): number {
    return this.mailbox.arrivals;
  }

  /**
   * Resolves once every command sent before the call has been decided and answered (committed, refused or
   * failed); commands sent later are not waited for, so a busy mailbox cannot keep the caller waiting. What
   * those commands changed is then in {@link state}.
   *
   * @example const before = actor.arrivals; await actor.settled(); // every command up to `before` is answered
   */
  settled(): Promise<void> {
    return this.mailbox.settled();
  }

  /**
   * Decides `batch` against the committed state, writes it, publishes it in the global order and replies,
   * each wait within the write timeout. On a store several nodes share, while no other node is seen writing
   * (`Sequencer.optimistic`) it is decided on this node's state and written only if no other node committed
   * after it (`CommitOptions.basis`). Otherwise, or once that is refused (`StaleBasisError`), the node first
   * catches up with what any node committed (in the scope's turn when another node writes it too, `LogTurn`),
   * and a batch whose log position another node took meanwhile (`LogConflictError`) is decided again on the
   * caught-up state, as if it had arrived after that node's command, until the timeout.
   */
  private async runBatch(batch: Envelope<C, E>[]): Promise<void> {
    let envelopes = batch;
    let firstOps = this.firstOps;
    this.firstOps = [];
    let optimistic = this.sequencer.optimistic && !this.turn.wanted;
    // Each wait (turn, catch-up, append, publication) is bounded by the write timeout; retries after conflicts too, in all.
    const deadline = performance.now() + this.writeTimeoutMs;
    try {
      for (;;) {
        if (this.sequencer.shared && !optimistic) {
          // Turns while another node writes this scope too (what arrives while waiting joins the batch); catch up.
          const ready = await this.turn.ready(this.writeTimeoutMs, () => {
            const more = this.mailbox.topUp(batch);
            if (envelopes !== batch) envelopes.push(...more);
          });
          if (ready !== null) return this.failAll(envelopes, ready);
        }
        // 1. Decide every command in order against one draft, so later commands see earlier ones.
        const basis = optimistic ? this.sequencer.revision : undefined;
        const draft = this.model.fork(this.state);
        const decided = decideBatch(this.model, draft, envelopes, {
          seq: this.seq, at: new Date(this.options.now?.() ?? Date.now()).toISOString(), ops: [...firstOps], countTypes: this.options.onCommitted !== undefined,
        });
        // 2. Write the batch durably (checked against its basis even with nothing to write); 3. publish it in order; 4. reply.
        const written = decided.ops.length === 0 && basis === undefined ? null : await this.write(envelopes, decided, this.writeTimeoutMs, basis);
        if (written === 'conflict' || written === 'stale') {
          // Another node committed first: its records are in the state once caught up; decide again (in turn after a conflict).
          if (written === 'conflict') this.turn.contended();
          else this.sequencer.refused();
          optimistic = false;
          if (performance.now() >= deadline) return this.failAll(envelopes, new Error(`the log of ${JSON.stringify(this.model.scope)} kept moving for ${this.writeTimeoutMs} ms`));
          envelopes = envelopes.filter((_, i) => decided.decisions[i] !== null);
          if (written === 'conflict') firstOps = []; // another node wrote them; a stale basis wrote nothing
          continue;
        }
        this.turn.release();
        if (written === 'failed') return;
        const published = this.sequencer.own(written === null ? [] : written.revs, decided.committed.length, (revision) => this.publish(draft, decided, revision));
        // The sequencer may be waiting on this batch's mark to publish it: end the mark once it is registered.
        written?.end();
        if (published !== PUBLISHED && (await within(published, this.writeTimeoutMs)) === 'timeout') await this.stall.outwait(envelopes, decided.decisions, published);
        envelopes.forEach((envelope, i) => {
          const decision = decided.decisions[i];
          // Answered already when the batch outlasted its timeout.
          if (decision) envelope.resolve(decision);
        });
        if (!this.closed && this.readOnly === null && this.snapshotsHere()) this.snapshots.writeIfDue(this.seq, () => this.model.snapshotOf(this.state));
        return;
      }
    } finally {
      this.turn.release();
    }
  }

  /**
   * Writes a decided batch, marked in flight with the sequencer until its outcome is known, waiting `ms` at
   * most, conditional on `basis` when given. Answers its revs (null on a store without a shared log) and the
   * function ending the mark, `conflict` when another writer took its log position, `stale` when another
   * writer committed after `basis` (nothing written), or `failed` when it was not written (its callers are
   * answered then).
   */
  private async write(envelopes: Envelope<C, E>[], decided: DecidedBatch<E>, ms: number, basis: number | undefined): Promise<{ revs: readonly number[] | null; end: () => void } | 'conflict' | 'stale' | 'failed'> {
    const end = this.sequencer.begin(scopePart(this.model.scope));
    const written = this.store.commit(decided.ops, basis === undefined ? undefined : { basis });
    const landed = await within(written, Math.max(ms, 0));
    if (landed === 'timeout') {
      const receipt = await this.stall.outlast(envelopes, decided.decisions, written);
      if (receipt === null) end();
      return receipt === null ? 'failed' : { revs: receipt.revs, end };
    }
    if (landed !== 'done') {
      end();
      if (landed.error instanceof LogConflictError) return 'conflict';
      if (landed.error instanceof StaleBasisError) return 'stale';
      this.failAll(envelopes, landed.error, decided.decisions);
      return 'failed';
    }
    return { revs: (await written).revs, end };
  }

  /** Publishes a written batch as the committed state, at `revision` of the global order, and tells the feed. */
  private publish(draft: D, decided: DecidedBatch<E>, revision: number): void {
    let bytes = 0;
    for (const op of decided.ops) if (op.type === 'put') bytes += op.value.length;
    this.snapshots.logged(decided.seq - this.seq, bytes);
    this.state = this.model.publish(this.state, draft);
    this.seq = decided.seq;
    if (decided.committed.length > 0) {
      this.options.onCommit?.(this.model.scope, decided.committed, revision);
      if (decided.types) this.options.onCommitted?.(decided.types);
    }
  }

  /**
   * Applies a record another node committed, at `revision` of the global order (the sequencer calls this in
   * order): its events evolve the state, and the feed is told as of a batch of this node. A record this
   * actor holds already (recovered past the revision the node started at) only moves the feed.
   */
  applyForeign(record: LogRecord<C, E>, revision: number, bytes: number): void {
    const committed = { seq: record.seq, at: record.at, by: record.by, events: record.events };
    if (record.seq <= this.seq) {
      this.options.onCommit?.(this.model.scope, [committed], revision);
      return;
    }
    if (record.seq !== this.seq + 1) throw new LogGapError(scopePart(this.model.scope), this.seq, record.seq);
    this.turn.contended();
    const draft = this.model.fork(this.state);
    for (const event of record.events) this.model.evolve(draft, event);
    this.state = this.model.publish(this.state, draft);
    this.seq = record.seq;
    this.snapshots.logged(1, bytes);
    this.options.onCommit?.(this.model.scope, [committed], revision);
    if (!this.closed && this.readOnly === null && this.snapshotsHere()) this.snapshots.writeIfDue(this.seq, () => this.model.snapshotOf(this.state));
  }

  /** Replaces the state with one recovered from the store (after a gap in what the shared log gave). */
  resetTo(state: S, seq: number): void {
    this.state = state;
    this.seq = seq;
  }

  /** Whether this node writes the snapshots (on a shared store, the node holding the snapshot lease). */
  private snapshotsHere(): boolean {
    return this.options.snapshotLease?.held ?? true;
  }

  /**
   * Every caller of the batch gets the storage error, refusals included: a refusal may rest on an earlier command
   * of the same batch (a name it took) that is not on disk. The draft is dropped: the state is what is on disk.
   */
  private failAll(envelopes: Envelope<C, E>[], cause: unknown, decisions?: (Decision<E, unknown> | null)[]): void {
    const error = new StorageError(cause, 'failed', undefined, this.store.writesTo);
    envelopes.forEach((envelope, i) => (!decisions || decisions[i]) && envelope.reject(error));
  }

  private get writeTimeoutMs(): number {
    return this.options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  }

  /** Writes a snapshot of the committed state now (also at shutdown); concurrent calls share one write. */
  snapshot(): Promise<void> {
    if (this.readOnly !== null) return Promise.resolve();
    return this.snapshots.write(this.seq, () => this.model.snapshotOf(this.state));
  }

  /**
   * Stops the actor for good without a last snapshot (its project was deleted): waits for queued commands and
   * a running snapshot, then refuses new commands.
   */
  async retire(): Promise<void> {
    await this.mailbox.idle();
    this.closed = true;
    await this.snapshots.idle().catch(() => undefined);
  }

  /** Waits for queued commands and a running snapshot, writes a last snapshot, then refuses new commands. */
  async close(): Promise<void> {
    await this.mailbox.idle();
    try {
      await this.snapshots.idle();
      if (this.snapshotsHere()) await this.snapshot();
    } catch (error) {
      this.snapshots.reportFailure(error);
    }
    this.closed = true;
  }
}
