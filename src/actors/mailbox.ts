import type { CallerRights } from '../domain/context.js';
import type { Decision } from '../domain/errors.js';
import type { Envelope } from './decide-batch.js';

/**
 * An actor's mailbox: commands queue in arrival order and are handed to `run` in batches of at most
 * `maxBatch`, one batch at a time; it counts what was sent and answered, so a caller can wait for every
 * command sent before it ({@link settled}).
 *
 * @example const mailbox = new Mailbox(256, (batch) => decideAndWrite(batch)); await mailbox.post(command, 'user:1');
 */
export class Mailbox<C, E> {
  private queue: Envelope<C, E>[] = [];
  private running = false;
  /** Commands sent so far, and of those, how many have been answered (in order: batches run in order). */
  private sent = 0;
  private answered = 0;
  private settledWaiters: { upTo: number; resolve: () => void }[] = [];

  constructor(private readonly maxBatch: number, private readonly run: (batch: Envelope<C, E>[]) => Promise<void>) {}

  /** Queues `command`; resolves with its decision once its batch has run. */
  post(command: C, by: string, rights?: CallerRights): Promise<Decision<E, unknown>> {
    return new Promise((resolve, reject) => {
      this.sent += 1;
      this.queue.push({ command, by, rights, arrival: this.sent, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** How many commands have been sent so far: a command with an `arrival` up to this one was sent before now. */
  get arrivals(): number {
    return this.sent;
  }

  /** Whether a batch runs or commands wait. */
  get busy(): boolean {
    return this.running || this.queue.length > 0;
  }

  /**
   * Resolves once every command sent before the call has been answered (committed, refused or failed);
   * commands sent later are not waited for, so a busy mailbox cannot keep the caller waiting.
   */
  settled(): Promise<void> {
    if (this.answered >= this.sent) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push({ upTo: this.sent, resolve }));
  }

  /**
   * Moves commands queued since `batch` was handed to `run` into it, up to the batch bound, and returns them
   * (the batch waited, for its turn at a log shared with other nodes: what arrived meanwhile goes with it).
   */
  topUp(batch: Envelope<C, E>[]): Envelope<C, E>[] {
    const more = this.queue.splice(0, Math.max(this.maxBatch - batch.length, 0));
    batch.push(...more);
    return more;
  }

  /** Answers every queued command with `error` at once (a batch is stuck on the store). */
  refuseQueued(error: unknown): void {
    const waiting = this.queue.splice(0);
    for (const envelope of waiting) envelope.reject(error);
    this.answered += waiting.length;
    this.wakeSettled();
  }

  /** Resolves once nothing runs or waits. */
  async idle(): Promise<void> {
    while (this.busy) await new Promise<void>((r) => setTimeout(r, 1));
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.run(batch);
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
}
