import { decode, encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { SharedLog, TransactionReads } from '../../snapshots/shared-log.js';
import type { BatchOp } from '../../snapshots/store.js';

/** The flushes whose changes stay readable: a node further behind reads every usage record again. */
export const JOURNAL_KEPT = 64;
/** The topic of the signal a flush sends: its number. */
export const USAGE_FLUSHED = 'usage-flushed';
/** The name of the transaction lock every node's flush holds. */
const FLUSH_LOCK = 'usage-flush';

/** One stored change of a flush: a key and its new value, or null for a deletion. */
export type StoredChange = [key: string, value: string | null];

/**
 * How the nodes on one store share the usage metrics (docs/storage.md "Usage metrics", several nodes). Each
 * node gathers the posts it receives and flushes them in one transaction of the store that holds the flush
 * lock across nodes (`SharedLog.transact`): inside it, the node first reads every flush the others wrote
 * since its last, so what it adds its interval to is what is stored, then writes the sums. Each flush is
 * numbered (`use/g`) and writes, with the records, its changes as one journal entry (`use/z/<number>`: whole
 * values, so reading one twice changes nothing); other nodes read the entries after the last they read, when
 * told by a signal or at their next flush. The last {@link JOURNAL_KEPT} entries are kept; a node further
 * behind reads every record again.
 *
 * @example await journal.transact(async (tx) => { const read = await journal.since(tx); ...; return { ops: [...ops, ...journal.entryOps(ops)], result } }, false);
 */
export class UsageJournal {
  /** The number of the last flush this node has read (or written). */
  generation = 0;

  constructor(private readonly shared: SharedLog) {}

  /** Runs `work` in a transaction under the flush lock of every node; the ops it answers are written in it. */
  transact<T>(work: (tx: TransactionReads) => Promise<{ ops: BatchOp[]; result: T }>, sync: boolean): Promise<T> {
    return this.shared.transact(FLUSH_LOCK, work, { sync });
  }

  /** The number of the last flush any node wrote. */
  async head(reads: TransactionReads): Promise<number> {
    const stored = await reads.get(keys.usageGeneration);
    return stored === undefined ? 0 : decode<number>(keys.usageGeneration, stored);
  }

  /**
   * The changes of every flush after {@link generation}, in order, and the number they reach; null when some
   * are no longer kept (the caller reads every record again).
   */
  async since(reads: TransactionReads): Promise<{ changes: StoredChange[]; head: number } | null> {
    const head = await this.head(reads);
    if (head <= this.generation) return { changes: [], head: this.generation };
    const changes: StoredChange[] = [];
    let expected = this.generation + 1;
    for await (const [key, value] of reads.entries(keys.usageJournalPrefix, { gt: keys.usageJournal(this.generation), lte: keys.usageJournal(head) })) {
      if (key !== keys.usageJournal(expected)) return null;
      changes.push(...decode<StoredChange[]>(key, value));
      expected += 1;
    }
    return expected === head + 1 ? { changes, head } : null;
  }

  /** What a flush of `ops` writes besides them: its journal entry, the new number, and the entry no longer kept. */
  entryOps(ops: readonly BatchOp[]): BatchOp[] {
    const next = this.generation + 1;
    const changes: StoredChange[] = ops.map((op) => [op.key, op.type === 'put' ? op.value : null]);
    const written: BatchOp[] = [
      { type: 'put', key: keys.usageJournal(next), value: encode(changes) },
      { type: 'put', key: keys.usageGeneration, value: encode(next) },
    ];
    if (next > JOURNAL_KEPT) written.push({ type: 'del', key: keys.usageJournal(next - JOURNAL_KEPT) });
    return written;
  }

  /** After a flush was written: its number is this node's, and every node is told. */
  async written(): Promise<void> {
    this.generation += 1;
    await this.shared.signal(USAGE_FLUSHED, String(this.generation));
  }
}
