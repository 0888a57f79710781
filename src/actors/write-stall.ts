import type { CommitReceipt } from '../../snapshots/store.js';
import type { Decision } from '../domain/errors.js';
import type { Logger } from '../log.js';
import type { Envelope } from './decide-batch.js';
import { StorageError } from './storage-error.js';

/** What a {@link WriteStall} answers and reports with. */
export interface WriteStallParts {
  /** Answers every queued command of the mailbox with the error given. */
  refuseQueued: (error: unknown) => void;
  /** The store's words for what a write waits for (`Store.writesTo`). */
  writesTo: string;
  /** The actor's scope, for the log. */
  scope: unknown;
  log: Logger;
  writeTimeoutMs: number;
}

/**
 * An actor's batch held past its write timeout: its callers are answered at once (a bounded wait) while the
 * mailbox waits for the batch's real end (the store's answer, or its place in the global order), and every
 * command meanwhile is refused at once ("stalled"), since it would be decided on a state without the batch.
 *
 * @example const receipt = await stall.outlast(batch, decisions, store.commit(ops)); // null: not written
 */
export class WriteStall {
  private holding = false;

  constructor(private readonly parts: WriteStallParts) {}

  /** Whether a batch is held: new commands are refused with {@link refusal}. */
  get stalled(): boolean {
    return this.holding;
  }

  /** What a command sent while a batch is held is answered. */
  refusal(): StorageError {
    return new StorageError(new Error(`a write is waiting for ${this.parts.writesTo}`), 'stalled', undefined, this.parts.writesTo);
  }

  /**
   * The batch outlasted the write timeout: answered now, and held until the store answers. Resolves with its
   * receipt when it was written after all (the caller then publishes it, so the state equals the store:
   * nothing acknowledged, nothing stored missing from memory), null when it was not.
   */
  async outlast<C, E>(batch: Envelope<C, E>[], decisions: (Decision<E, unknown> | null)[], written: Promise<CommitReceipt>): Promise<CommitReceipt | null> {
    const { writesTo, writeTimeoutMs, log, scope } = this.parts;
    const receipt = written.catch(() => null);
    const error = new StorageError(new Error(`no answer from ${writesTo} within ${writeTimeoutMs} ms`), 'timeout', receipt.then((landed) => landed !== null), writesTo);
    const landed = await this.hold(batch, decisions, error, receipt);
    if (landed) log.warn({ scope }, `a batch of ${JSON.stringify(scope)} reached ${writesTo} after its callers were answered 503; it is now in the state`);
    return landed;
  }

  /**
   * The batch is committed but not in its place in the global order when the write timeout ends (this node
   * has not read what other nodes committed before it: the database stopped answering reads). Answered now,
   * and held until `published`.
   */
  async outwait<C, E>(batch: Envelope<C, E>[], decisions: (Decision<E, unknown> | null)[], published: Promise<void>): Promise<void> {
    const { writesTo, writeTimeoutMs, log, scope } = this.parts;
    const cause = new Error(`committed, but what other nodes committed before it was not read within ${writeTimeoutMs} ms`);
    await this.hold(batch, decisions, new StorageError(cause, 'timeout', published.then(() => true), writesTo), published);
    log.warn({ scope }, `a batch of ${JSON.stringify(scope)} took its place in the global order after its callers were answered 503; it is now in the state`);
  }

  /** Answers the callers still waiting (decision not null) with `error`, marks them answered, holds until `until`. */
  private async hold<C, E, T>(batch: Envelope<C, E>[], decisions: (Decision<E, unknown> | null)[], error: StorageError, until: Promise<T>): Promise<T> {
    batch.forEach((envelope, i) => {
      if (decisions[i]) envelope.reject(error);
      decisions[i] = null;
    });
    this.holding = true;
    this.parts.refuseQueued(this.refusal());
    try {
      return await until;
    } finally {
      this.holding = false;
    }
  }
}
