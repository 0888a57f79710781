import type { HeldTurn } from '../../../snapshots/shared-log.js';
import { within } from '../within.js';
import type { Sequencer } from './sequencer.js';

/**
 * How long after another node last wrote a scope (its record applied here, or an append of ours refused) a
 * batch of that scope takes its turn first, ms.
 */
export const CONTENDED_MS = 1000;

/**
 * The longest a batch waits for its turn, ms (less when the write timeout is shorter: half of it); then it
 * appends without one, as a scope written by one node does. A turn held by a node cut off from the database
 * (its connection not yet noticed dead) so slows the others' writes without stopping them.
 */
export const TURN_WAIT_MS = 2000;

/**
 * One actor's turns at appending to its scope's log across nodes (docs/architecture.md "Several nodes"). A
 * scope written by this node alone appends optimistically: catch up, decide, append. Once another node writes
 * it too, each batch first takes the scope's turn (`SharedLog.turn`, an advisory lock), so the nodes append
 * one after the other, each deciding on the state the one before it committed, instead of deciding on a
 * stale state, colliding in the log and deciding again. Without a shared log it never takes one.
 *
 * @example const late = await turn.ready(10_000, () => {}); if (late === null) { ...decide and append...; } turn.release();
 */
export class LogTurn {
  private lastContention = Number.NEGATIVE_INFINITY;
  private lock: HeldTurn | null = null;
  /** The head read when the turn was granted, until a catch-up uses it. */
  private grantedHead: number | null = null;

  constructor(private readonly sequencer: Sequencer, private readonly scope: string, private readonly now: () => number = () => performance.now()) {}

  /** Notes that another node wrote this scope: a record of it applied here, or an append of ours refused. */
  contended(): void {
    this.lastContention = this.now();
  }

  /** Whether the next batch takes its turn: another node wrote this scope within {@link CONTENDED_MS}. */
  get wanted(): boolean {
    return this.sequencer.shared && this.now() - this.lastContention < CONTENDED_MS;
  }

  /** Whether this actor holds the turn now. */
  get held(): boolean {
    return this.lock !== null;
  }

  /**
   * Takes the turn if {@link wanted} and not held yet, waiting at most {@link TURN_WAIT_MS} (or half of `ms`):
   * `done` (held, not wanted, or not granted in time: the batch goes without), or the store's error. A turn
   * granted after the wait is given back at once.
   */
  private async take(ms: number): Promise<'done' | { error: unknown }> {
    if (this.lock !== null || !this.wanted) return 'done';
    const taking = this.sequencer.turn(this.scope);
    const got = await within(taking, Math.min(TURN_WAIT_MS, ms / 2));
    if (got === 'done') {
      this.lock = await taking;
      this.grantedHead = this.lock.head;
      return 'done';
    }
    void taking.then((late) => late.release(), () => undefined);
    return got === 'timeout' ? 'done' : got;
  }

  /**
   * Takes the turn when {@link wanted} (`granted` runs once it is granted now), then catches up with the
   * store (to the head read with the grant, else to one read now), within `ms` each; null when done, else
   * why not in time.
   */
  async ready(ms: number, granted: () => void): Promise<unknown> {
    const held = this.held;
    const turn = await this.take(ms);
    if (turn !== 'done') return turn.error;
    if (!held && this.held) granted();
    const caughtUp = await within(this.sequencer.catchUp(this.takeHead()), ms);
    if (caughtUp !== 'done') return caughtUp === 'timeout' ? new Error('no answer from the store in time') : caughtUp.error;
    return null;
  }

  /** The head read as the turn was granted, once (a later catch-up reads its own); undefined otherwise. */
  private takeHead(): number | undefined {
    const head = this.grantedHead ?? undefined;
    this.grantedHead = null;
    return head;
  }

  /** Gives the turn back (nothing when not held): once the batch's append is committed or refused for good. */
  release(): void {
    const held = this.lock;
    this.lock = null;
    this.grantedHead = null;
    if (held) void held.release().catch(() => undefined);
  }
}
