/** The counter a group is written against, and which of its callers' bases hold under it. */
export interface Expectation {
  /** The counter the conditional write expects (`writeStatement`'s `$10`). */
  expected: number;
  /** Whether a batch decided on revision `basis` is sound if the counter still holds {@link expected}. */
  holds(basis: number): boolean;
}

/**
 * What one node's group commit knows of the counter (`pg-commits.ts`): its value after this writer's last
 * write, and the rev from which every rev up to it is this writer's own. A batch decided on revision `basis`
 * (its node had applied every record up to it) is sound if no other writer has committed after `basis`: when
 * every rev between `basis` and a value the counter still holds is this writer's own. So the group is written
 * conditional on that value (one round trip, no read of the head first); a counter that moved means another
 * writer committed, and the write is refused. Revs this writer cannot vouch for count as another writer's.
 *
 * @example const e = revs.expectation([12, 12]); // { expected: 12, holds: (b) => b >= 12 } after nothing was written
 */
export class OwnRevs {
  /** The counter after this writer's last write, and from where every rev up to it is this writer's own. */
  private known: { head: number; ownFrom: number } | null = null;

  /**
   * The counter to expect for a group whose decided batches rest on `bases`: the newest of them, or this
   * writer's last head when that is newer (its own later revs do not stale a basis). Null without bases.
   */
  expectation(bases: readonly number[]): Expectation | null {
    if (bases.length === 0) return null;
    const newest = Math.max(...bases);
    const known = this.known;
    if (known === null || known.head < newest) return { expected: newest, holds: (basis) => basis >= newest };
    return { expected: known.head, holds: (basis) => basis >= known.ownFrom };
  }

  /**
   * Learns from a write that went through: conditional on `expected` (null: not conditional), `appended`
   * records numbered up to `last` (null when none was appended).
   */
  wrote(expected: number | null, appended: number, last: number | null): void {
    const known = this.known;
    if (appended === 0 || last === null) {
      // Nothing appended: a conditional write saw the counter at `expected`.
      if (expected !== null && known?.head !== expected) this.known = { head: expected, ownFrom: expected };
      return;
    }
    const before = last - appended;
    const contiguous = known !== null && known.head === before;
    this.known = { head: last, ownFrom: contiguous ? known.ownFrom : before };
  }

  /** Forgets what it knew (a conditional write was refused, or a write's outcome or revs are unknown). */
  forget(): void {
    this.known = null;
  }
}
