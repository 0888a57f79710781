import type { BatchOp, Store } from '../../snapshots/store.js';
import type { CallerRights } from '../domain/context.js';
import { fail, refuse, type Decision } from '../domain/errors.js';
import type { Command, Model, Replies } from './actor-model.js';
import { DEFAULT_WRITE_TIMEOUT_MS, type ActorOptions } from './actor-options.js';
import { decideBatch, type Envelope } from './decide-batch.js';
import { SnapshotSchedule } from './snapshot-schedule.js';
import { StorageError } from './storage-error.js';

/** What a {@link CommandActor} is made of. */
export interface CommandActorParts<S, D, C extends Command, E, RM extends Replies<C>> {
  store: Store;
  model: Model<S, D, C, E, RM>;
  /** The last committed state (as recovered, or empty). */
  state: S;
  /** Sequence number of the last record in the log. */
  seq: number;
  options: ActorOptions;
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
  private firstOps: BatchOp[];
  private readonly snapshots: SnapshotSchedule;
  private queue: Envelope<C, E>[] = [];
  private running = false;
  private closed = false;
  /** Commands sent so far, and of those, how many have been answered (in order: batches run in order). */
  private sent = 0;
  private answered = 0;
  private settledWaiters: { upTo: number; resolve: () => void }[] = [];
  /** A batch is past its write timeout and still waiting for the disk: new commands are refused at once. */
  private stalled = false;
  /** Why this actor takes no command (its log could not be fully recovered); null: it does. */
  private readOnly: string | null = null;

  constructor(parts: CommandActorParts<S, D, C, E, RM>) {
    this.store = parts.store;
    this.model = parts.model;
    this.state = parts.state;
    this.seq = parts.seq;
    this.options = parts.options;
    this.firstOps = parts.firstOps ?? [];
    this.snapshots = new SnapshotSchedule({ store: parts.store, scope: parts.model.scope, machines: parts.model.machines, options: parts.options, bytes: parts.snapshotBytes ?? 0 });
  }

  /**
   * Queues a command; resolves with its decision once it (and its batch) is durable. The reply's type is the
   * one the model's reply map gives the command's type.
   */
  send<K extends C>(command: K, by: string, rights?: CallerRights): Promise<Decision<E, RM[K['type']]>> {
    if (this.closed) return Promise.reject(new StorageError(new Error('actor closed')));
    if (this.readOnly !== null) return Promise.resolve(refuse(fail('Unavailable', this.readOnly)));
    if (this.stalled) return Promise.reject(new StorageError(new Error('a write is waiting for the disk'), 'stalled'));
    return new Promise((resolve, reject) => {
      // The envelope forgets the reply type; the model decided it for this very command.
      this.sent += 1;
      this.queue.push({ command, by, rights, arrival: this.sent, resolve: resolve as (decision: Decision<E, unknown>) => void, reject });
      if (!this.running) void this.drain();
    });
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
    return this.sent;
  }

  /**
   * Resolves once every command sent before the call has been decided and answered (committed, refused or
   * failed); commands sent later are not waited for, so a busy mailbox cannot keep the caller waiting. What
   * those commands changed is then in {@link state}.
   *
   * @example const before = actor.arrivals; await actor.settled(); // every command up to `before` is answered
   */
  settled(): Promise<void> {
    if (this.answered >= this.sent) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push({ upTo: this.sent, resolve }));
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        try {
          await this.runBatch(batch);
        } finally {
          this.answered += batch.length;
          this.wakeSettled();
        }
      }
    } finally {
      this.running = false;
    }
  }

  private wakeSettled(): void {
    if (this.settledWaiters.length === 0) return;
    const waiting = this.settledWaiters;
    this.settledWaiters = [];
    for (const waiter of waiting) {
      if (waiter.upTo <= this.answered) waiter.resolve();
      else this.settledWaiters.push(waiter);
    }
  }

  private async runBatch(batch: Envelope<C, E>[]): Promise<void> {
    // 1. Decide every command in order against one draft, so later commands see earlier ones.
    const draft = this.model.fork(this.state);
    const firstOps = this.firstOps;
    this.firstOps = [];
    const { decisions, ops, committed, types, seq } = decideBatch(this.model, draft, batch, {
      seq: this.seq, at: new Date(this.options.now?.() ?? Date.now()).toISOString(), ops: firstOps, countTypes: this.options.onCommitted !== undefined,
    });
    // 2. Write the batch durably; 3. publish the draft; 4. reply.
    if (ops.length > 0) {
      const written = this.store.commit(ops);
      let landed: 'written' | 'timeout';
      let timer: NodeJS.Timeout | undefined;
      try {
        landed = await Promise.race([
          written.then(() => 'written' as const),
          new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), this.options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS); }),
        ]);
      } catch (cause) {
        // Every caller of the batch gets the storage error, refusals included: a refusal may rest on an earlier
        // command of the same batch (a name it took) that is not on disk. The draft is dropped: the state is
        // what is on disk.
        const error = new StorageError(cause);
        batch.forEach((envelope, i) => decisions[i] && envelope.reject(error));
        return;
      } finally {
        clearTimeout(timer);
      }
      if (landed === 'timeout' && !(await this.outlast(batch, decisions, written))) return;
    }
    let bytes = 0;
    for (const op of ops) if (op.type === 'put') bytes += op.value.length;
    this.snapshots.logged(seq - this.seq, bytes);
    this.state = this.model.publish(this.state, draft);
    this.seq = seq;
    if (committed.length > 0) {
      this.options.onCommit?.(this.model.scope, committed);
      if (types) this.options.onCommitted?.(types);
    }
    batch.forEach((envelope, i) => {
      const decision = decisions[i];
      // Answered already when the batch outlasted its timeout.
      if (decision) envelope.resolve(decision);
    });
    if (!this.closed && this.readOnly === null) this.snapshots.writeIfDue(this.seq, () => this.model.snapshotOf(this.state));
  }

  /**
   * The batch outlasted the write timeout: its callers and every queued command are answered now with a
   * {@link StorageError} (a bounded wait), new commands are refused while the disk holds this batch, and the
   * mailbox waits for the batch's real outcome. Returns true when it was written after all: the caller then
   * publishes it, so the state equals the disk (nothing acknowledged, nothing on disk missing from memory).
   */
  private async outlast(batch: Envelope<C, E>[], decisions: (Decision<E, unknown> | null)[], written: Promise<unknown>): Promise<boolean> {
    const outcome = written.then(() => true, () => false);
    const error = new StorageError(new Error(`no answer from the disk within ${this.options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS} ms`), 'timeout', outcome);
    batch.forEach((envelope, i) => {
      if (decisions[i]) envelope.reject(error);
      decisions[i] = null;
    });
    this.stalled = true;
    const waiting = this.queue.splice(0);
    const refused = new StorageError(new Error('a write is waiting for the disk'), 'stalled');
    for (const envelope of waiting) envelope.reject(refused);
    this.answered += waiting.length;
    this.wakeSettled();
    const landed = await outcome;
    this.stalled = false;
    if (landed) this.options.log.warn({ scope: this.model.scope }, `a batch of ${JSON.stringify(this.model.scope)} reached the disk after its callers were answered 503; it is now in the state`);
    return landed;
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
    while (this.running || this.queue.length > 0) await new Promise<void>((r) => setTimeout(r, 1));
    this.closed = true;
    await this.snapshots.idle().catch(() => undefined);
  }

  /** Waits for queued commands and a running snapshot, writes a last snapshot, then refuses new commands. */
  async close(): Promise<void> {
    while (this.running || this.queue.length > 0) await new Promise<void>((r) => setTimeout(r, 1));
    try {
      await this.snapshots.idle();
      await this.snapshot();
    } catch (error) {
      this.snapshots.reportFailure(error);
    }
    this.closed = true;
  }
}
