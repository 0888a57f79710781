import { parseLogKey } from './keys.js';
import { LogConflictError, type BatchOp } from './store.js';

/** A caller waiting in a group commit: its ops, and how to refuse it. */
export interface AppendingWaiter {
  ops: BatchOp[];
  reject: (error: unknown) => void;
}

/**
 * The last sequence number of each log, so a store whose writes overwrite (LevelDB's puts) refuses an append
 * at a position the log holds, as PostgreSQL's primary key does: a record is never written over. Learned per
 * log from its last key on first use, then kept up to date by {@link written}.
 *
 * @example const kept = await appends.refuseConflicts(group); // the others were rejected with a LogConflictError
 */
export class LogAppends {
  private readonly last = new Map<string, number>();

  constructor(
    /** The last key starting with a log's prefix (`<scope>/log/`), or undefined for an empty log. */
    private readonly lastKey: (prefix: string) => Promise<string | undefined>,
  ) {}

  /**
   * Rejects, with a {@link LogConflictError}, every waiter that appends at or below the last record of a log
   * (as held, or as appended by an earlier waiter of the group), and returns the others in order.
   */
  async refuseConflicts<W extends AppendingWaiter>(group: W[]): Promise<W[]> {
    const claimed = new Map<string, number>();
    const kept: W[] = [];
    for (const waiter of group) {
      const mine = new Map<string, number>();
      let conflict: LogConflictError | null = null;
      for (const op of waiter.ops) {
        const log = op.type === 'put' ? parseLogKey(op.key) : null;
        if (!log) continue;
        // The end as held, read without a turn of the event loop; only a log not seen yet is looked up.
        const held = mine.get(log.scope) ?? claimed.get(log.scope) ?? this.last.get(log.scope) ?? await this.lastSeq(log.scope);
        if (log.seq <= held) {
          conflict = new LogConflictError(log.scope, log.seq);
          break;
        }
        mine.set(log.scope, log.seq);
      }
      if (conflict) {
        waiter.reject(conflict);
        continue;
      }
      for (const [scope, seq] of mine) claimed.set(scope, seq);
      kept.push(waiter);
    }
    return kept;
  }

  /** Notes ops that were written: appends move a log's end; a deleted record makes it learn its end again. */
  written(ops: readonly BatchOp[]): void {
    if (this.last.size === 0) return;
    for (const op of ops) {
      const log = parseLogKey(op.key);
      if (!log) continue;
      if (op.type === 'del') this.last.delete(log.scope);
      else if (this.last.has(log.scope)) this.last.set(log.scope, Math.max(this.last.get(log.scope)!, log.seq));
    }
  }

  private async lastSeq(scope: string): Promise<number> {
    const known = this.last.get(scope);
    if (known !== undefined) return known;
    const key = await this.lastKey(`${scope}/log/`);
    const seq = key === undefined ? 0 : parseLogKey(key)?.seq ?? 0;
    this.last.set(scope, seq);
    return seq;
  }
}
