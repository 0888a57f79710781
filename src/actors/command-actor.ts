import { encode } from '../../snapshots/codec.js';
import { keys, type Scope } from '../../snapshots/keys.js';
import type { LogRecord } from '../../snapshots/records.js';
import { pruneSnapshots, writeSnapshot } from '../../snapshots/snapshot-writer.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import type { Decision } from '../domain/errors.js';
import type { Logger } from '../log.js';

import type { ActorContext } from '../domain/context.js';

/** A command: something with a `type`. */
export type Command = { type: string };

/** What each command type answers, by type. */
export type Replies<C extends Command> = { [K in C['type']]: unknown };

/**
 * The pure logic an actor runs: decide a command against a working draft, evolve the draft with the
 * events, then publish the draft as the new committed state once it is on disk. `RM` maps each command
 * type to its reply, so `send` answers with the command's own reply type.
 */
export interface Model<S, D, C extends Command, E, RM extends Replies<C>> {
  readonly scope: Scope;
  fork(state: S): D;
  decide<K extends C>(draft: D, command: K, context: ActorContext): Decision<E, RM[K['type']]>;
  evolve(draft: D, event: E): void;
  publish(state: S, draft: D): S;
  /** What a snapshot of `state` holds: a small meta value and a list of immutable items. */
  snapshotOf(state: S): { meta: unknown; items: readonly unknown[] };
  /** Machine versions recorded in snapshot heads. */
  readonly machines: Readonly<Record<string, number>>;
}

export interface ActorOptions {
  /**
   * Snapshot after at least this many commands, and once the log has grown by {@link SNAPSHOT_LOG_FACTOR}
   * times the bytes the last snapshot took.
   */
  snapshotEvery: number;
  /** Log records kept before the oldest retained snapshot; `all` never trims. */
  logRetention: number | 'all';
  /** Most commands decided into one batch. */
  maxBatch: number;
  /** Where a failed snapshot is reported. */
  log: Logger;
  /**
   * Told of every batch once it is on disk and published: the scope and its records, in order. Called
   * synchronously before the replies go out; a listener must only take note (see `CommittedFeed`).
   */
  onCommit?: ((scope: Scope, records: readonly CommittedRecord[]) => void) | undefined;
  /**
   * How long a batch may wait for the disk before its callers are answered with a {@link StorageError}
   * (`WRITE_TIMEOUT_MS`); the batch itself is still awaited, and published if it lands later.
   */
  writeTimeoutMs?: number | undefined;
  /** Told of every snapshot written: its wall time (ms) and stored bytes. */
  onSnapshot?: ((ms: number, bytes: number) => void) | undefined;
  /** Told of every batch written: the commands committed in it, by type (the metrics count them). */
  onCommitted?: ((types: readonly string[]) => void) | undefined;
}

/** One committed log record, as the feed passes it on. */
export interface CommittedRecord<E = unknown> {
  seq: number;
  at: string;
  by: string;
  events: readonly E[];
}

/**
 * A snapshot is due once the log has grown by this many times the last snapshot's size: replay after a crash
 * stays within a few times the state's size, and saving a large state costs half as much as the log writes
 * that led to it.
 */
export const SNAPSHOT_LOG_FACTOR = 2;

/**
 * A failure of the store itself, not of the command. `failed`: the batch was not written (nothing of it is
 * on disk or in the state). `timeout`: the disk did not answer in time; the batch may still land, and
 * `outcome` tells whether it did (the state follows the disk either way). `stalled`: refused at once, an
 * earlier batch of this mailbox is still waiting for the disk.
 */
export class StorageError extends Error {
  constructor(
    cause: unknown,
    readonly reason: 'failed' | 'timeout' | 'stalled' = 'failed',
    /** For `timeout`: resolves true if the batch was written after all, false if it failed. */
    readonly outcome?: Promise<boolean>,
  ) {
    super(STORAGE_MESSAGES[reason], { cause });
    this.name = 'StorageError';
  }
}

const STORAGE_MESSAGES = {
  failed: 'the command could not be written to disk; nothing of it was recorded',
  timeout: 'the disk did not confirm the write in time; the command may or may not have been recorded',
  stalled: 'an earlier write is still waiting for the disk; the command was not recorded',
};

/** The default of `WRITE_TIMEOUT_MS`. */
export const DEFAULT_WRITE_TIMEOUT_MS = 10_000;

interface Envelope<C, E> {
  command: C;
  by: string;
  /** Its place in the order of arrival (1, 2, ...). */
  arrival: number;
  resolve: (decision: Decision<E, unknown>) => void;
  reject: (error: unknown) => void;
}

/**
 * An actor with a mailbox: commands run one at a time in arrival order against a draft of the state, a
 * batch of them is written as one synced LevelDB batch (log records), and only then does the draft become
 * the committed state that reads see and do the replies go out. Serializing through the mailbox is what
 * makes checks such as "name unused" or "one owner left" hold under concurrent requests.
 */
export class CommandActor<S, D, C extends Command, E, RM extends Replies<C>> {
  private queue: Envelope<C, E>[] = [];
  private running = false;
  private sinceSnapshot = 0;
  private logBytesSinceSnapshot = 0;
  private snapshotting: Promise<void> | null = null;
  private closed = false;
  /** Commands sent so far, and of those, how many have been answered (in order: batches run in order). */
  private sent = 0;
  private answered = 0;
  private settledWaiters: { upTo: number; resolve: () => void }[] = [];
  /** A batch is past its write timeout and still waiting for the disk: new commands are refused at once. */
  private stalled = false;
  /** Why this actor takes no command (its log could not be fully recovered); null: it does. */
  private readOnly: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly model: Model<S, D, C, E, RM>,
    /** The last committed state; read it freely, it never holds an unwritten change. */
    public state: S,
    /** Sequence number of the last record in the log. */
    public seq: number,
    private readonly options: ActorOptions,
    /** Extra ops written with the first batch (a project's registration). */
    private firstOps: BatchOp[] = [],
    /** Stored size of the latest snapshot (as recovered). */
    private snapshotBytes = 0,
  ) {}

  /**
   * Queues a command; resolves with its decision once it (and its batch) is durable. The reply's type is the
   * one the model's reply map gives the command's type.
   */
  send<K extends C>(command: K, by: string): Promise<Decision<E, RM[K['type']]>> {
    if (this.closed) return Promise.reject(new StorageError(new Error('actor closed')));
    if (this.readOnly !== null) return Promise.resolve({ ok: false, error: { kind: 'Unavailable', message: this.readOnly } });
    if (this.stalled) return Promise.reject(new StorageError(new Error('a write is waiting for the disk'), 'stalled'));
    return new Promise((resolve, reject) => {
      // The envelope forgets the reply type; the model decided it for this very command.
      this.sent += 1;
      this.queue.push({ command, by, arrival: this.sent, resolve: resolve as (decision: Decision<E, unknown>) => void, reject });
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
    return this.sinceSnapshot;
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
    const at = new Date().toISOString();
    const ops: BatchOp[] = this.firstOps;
    this.firstOps = [];
    // A decision or record that threw is a bug: its caller gets the exception (a logged 500), the others go
    // on. The record is encoded before the draft evolves, so a failure leaves the draft untouched.
    const decisions: (Decision<E, unknown> | null)[] = [];
    const committed: CommittedRecord<E>[] = [];
    /** The types of the commands recorded, for the metrics (only when they listen). */
    const types: string[] | null = this.options.onCommitted ? [] : null;
    let seq = this.seq;
    for (const envelope of batch) {
      let decision: Decision<E, unknown>;
      let op: BatchOp | null = null;
      try {
        decision = this.model.decide(draft, envelope.command, { at, by: envelope.by, seq: seq + 1, arrival: envelope.arrival });
        if (decision.ok && decision.events.length > 0) {
          const record: LogRecord<C, E> = { seq: seq + 1, at, by: envelope.by, command: envelope.command, events: decision.events };
          op = { type: 'put', key: keys.log(this.model.scope, seq + 1), value: encode(record) };
        }
      } catch (error) {
        envelope.reject(error);
        decisions.push(null);
        continue;
      }
      decisions.push(decision);
      if (!op || !decision.ok) continue;
      for (const event of decision.events) this.model.evolve(draft, event);
      seq += 1;
      ops.push(op);
      committed.push({ seq, at, by: envelope.by, events: decision.events });
      types?.push(envelope.command.type);
    }
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
      for (const op of ops) if (op.type === 'put') this.logBytesSinceSnapshot += op.value.length;
    }
    this.sinceSnapshot += seq - this.seq;
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
    this.maybeSnapshot();
  }

  /**
   * The batch outlasted the write timeout: its callers and every queued command are answered now with a
   * {@link StorageError} (a bounded wait), new commands are refused while the disk holds this batch, and the
   * mailbox waits for the batch's real outcome. Returns true when it was written after all: the caller then
   * publishes it, so the state equals the disk (nothing acknowledged, nothing on disk missing from memory).
   */
  private async outlast(batch: Envelope<C, E>[], decisions: (Decision<E, unknown> | null)[], written: Promise<void>): Promise<boolean> {
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

  private maybeSnapshot(): void {
    if (this.snapshotting || this.closed || this.readOnly !== null) return;
    if (this.sinceSnapshot < this.options.snapshotEvery || this.logBytesSinceSnapshot < SNAPSHOT_LOG_FACTOR * this.snapshotBytes) return;
    // A failed snapshot loses nothing (the log holds every command); it is reported and tried again later.
    this.snapshot().catch((error: unknown) => this.reportSnapshotFailure(error));
  }

  private reportSnapshotFailure(error: unknown): void {
    this.sinceSnapshot = Math.max(this.sinceSnapshot, this.options.snapshotEvery);
    this.options.log.error({ scope: this.model.scope, err: error }, `snapshot of ${JSON.stringify(this.model.scope)} failed; the log still holds every command`);
  }

  /** Writes a snapshot of the committed state now (also at shutdown); concurrent calls share one write. */
  snapshot(): Promise<void> {
    if (this.snapshotting) return this.snapshotting;
    if (this.sinceSnapshot === 0 || this.readOnly !== null) return Promise.resolve();
    const seq = this.seq;
    const { meta, items } = this.model.snapshotOf(this.state);
    this.sinceSnapshot = 0;
    this.logBytesSinceSnapshot = 0;
    this.snapshotting = (async () => {
      try {
        const started = performance.now();
        this.snapshotBytes = await writeSnapshot(this.store, this.model.scope, { seq, at: new Date().toISOString(), machines: this.model.machines, meta }, items);
        this.options.onSnapshot?.(performance.now() - started, this.snapshotBytes);
        await pruneSnapshots(this.store, this.model.scope, 2, this.options.logRetention);
      } finally {
        this.snapshotting = null;
      }
    })();
    return this.snapshotting;
  }

  /**
   * Stops the actor for good without a last snapshot (its project was deleted): waits for queued commands and
   * a running snapshot, then refuses new commands.
   */
  async retire(): Promise<void> {
    while (this.running || this.queue.length > 0) await new Promise<void>((r) => setTimeout(r, 1));
    this.closed = true;
    await this.snapshotting?.catch(() => undefined);
  }

  /** Waits for queued commands and a running snapshot, writes a last snapshot, then refuses new commands. */
  async close(): Promise<void> {
    while (this.running || this.queue.length > 0) await new Promise<void>((r) => setTimeout(r, 1));
    try {
      if (this.snapshotting) await this.snapshotting;
      await this.snapshot();
    } catch (error) {
      this.reportSnapshotFailure(error);
    }
    this.closed = true;
  }
}
