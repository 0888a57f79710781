/**
 * What several nodes on one store share beyond keys and values (docs/architecture.md "Several nodes"): the
 * log of every scope in one global order, a signal when it grows, locks across nodes, and leases for work one
 * node does. PostgreSQL keeps it (`pg/pg-shared-log.ts`); LevelDB has none (one process owns its directory).
 */
import type { LogKey } from './keys.js';
import type { BatchOp, EntriesOptions } from './store-types.js';

/** One log record as every node reads it: its scope's key part and seq, its global `rev`, and its stored text. */
export interface SharedRow extends LogKey {
  rev: number;
  record: string;
}

/** A lock held across nodes; {@link release} it when the work is done (a node that dies releases it). */
export interface HeldLock {
  release(): Promise<void>;
}

/** A turn at a scope's log ({@link SharedLog.turn}): held until released, with the head read once it was granted. */
export interface HeldTurn extends HeldLock {
  /** The last rev any node committed, read after the turn was granted. */
  head: number;
}

/**
 * Work that one node at a time does (snapshots, scheduled changes, deliveries): held while {@link held} is
 * true, taken over by another node when its holder dies or lets go.
 */
export interface Lease {
  /** Whether this node holds it now. */
  readonly held: boolean;
  /** Called with the new state each time it changes. */
  onChange(listener: (held: boolean) => void): () => void;
  /** Lets go for good (at shutdown). */
  close(): Promise<void>;
}

/** How the node's contact with the shared store fares: when it last heard from it, and since when it has not. */
export interface Contact {
  /** Epoch ms of the last successful exchange (a notification, a read, the listening connection's check). */
  lastContact: number;
  /** Since when (epoch ms) the listening connection is down; null while it is up. */
  lostSince: number | null;
}

/** The most bytes a signal's topic and message may hold together (PostgreSQL's NOTIFY payload is below 8,000). */
export const SIGNAL_MAX_BYTES = 7_900;

/** What a charge against a budget across nodes ({@link SharedLog.charge}) answered. */
export type BudgetCharge =
  /** Taken from the window that started at `window` (the database's clock, ms): give it back against that. */
  | { taken: true; window: number }
  /** The window's budget is spent: nothing was taken; it ends in `waitMs`. */
  | { taken: false; waitMs: number };

/** What a {@link SharedLog.transact} reads through: the store's reads, inside its transaction. */
export interface TransactionReads {
  get(key: string): Promise<string | undefined>;
  entries(prefix: string, options?: EntriesOptions): AsyncGenerator<[string, string]>;
}

/** What the work of a {@link SharedLog.transact} answers: the ops the transaction writes, and its result. */
export interface TransactionWork<T> {
  ops: BatchOp[];
  result: T;
}

/** A message one node sent every node ({@link SharedLog.signal}): what it is about, and its text. */
export interface Signal {
  topic: string;
  message: string;
}

/**
 * The global log and the coordination primitives of a store several nodes share.
 *
 * Revisions: every appended record gets the next `rev` in commit order (the store's counter, whose row lock
 * orders commits), so once a node sees rev N committed, every rev below N is committed or was deleted since
 * (a purged project, a trimmed log). A node applies records in rev order and that makes its state and its
 * revision mean the same as on every other node.
 */
export interface SharedLog {
  /** The last rev any node committed. */
  head(): Promise<number>;
  /** Records with `after < rev <= upTo` (no upper bound when absent), in rev order, at most `limit`. */
  since(after: number, options: { upTo?: number | undefined; limit: number }): Promise<SharedRow[]>;
  /**
   * Told the last rev of every commit of any node (the store's notification), and `null` after the listening
   * connection came back (notifications may have been missed: read what is new). Returns the unsubscribe.
   */
  listen(listener: (rev: number | null) => void): () => void;
  /** Waits for lock `name` across every node (and this one), exclusive or shared. */
  lock(name: string, mode?: 'exclusive' | 'shared'): Promise<HeldLock>;
  /**
   * Waits for the turn at appending to the log of `scope` (its key part: `svc`, `p/<id>`) across every node:
   * while it is held, no other node's turn of that scope is, so a writer that catches up, decides and appends
   * in its turn finds its place free unless a writer outside any turn took it. Only a help against
   * conflicts: an append is checked by the log alone (`LogConflictError`), turn or not. The turn carries the
   * head read once it was granted (the catch-up needs no read of its own).
   */
  turn(scope: string): Promise<HeldTurn>;
  /** The lease of work `name`; one node holds it at a time. */
  lease(name: string): Lease;
  /** How the node's contact with the store fares. */
  contact(now?: number): Contact;
  /**
   * Takes `cost` from budget `key`, one count for every node: at most `perWindow` in each window of `windowMs`
   * (a window starts at the first charge after the last one ended, on the database's clock), in one atomic
   * statement, so charges from any number of nodes at once never pass the budget between them.
   */
  charge(key: string, cost: number, perWindow: number, windowMs: number): Promise<BudgetCharge>;
  /** Gives `cost` back to budget `key` if its window is still the one that started at `window`; else nothing. */
  giveBack(key: string, cost: number, window: number): Promise<void>;
  /**
   * Sends `message` (at most {@link SIGNAL_MAX_BYTES} of UTF-8 with its topic) to every node listening, this one
   * included, once the database has it; a node whose listening connection was away misses it (and is told null).
   */
  signal(topic: string, message: string): Promise<void>;
  /** Told every signal, and `null` after the listening connection came back (signals may have been missed). */
  onSignal(listener: (signal: Signal | null) => void): () => void;
  /**
   * Writes `value` under `key` only if the key holds a value now: a write that must never bring back what
   * another node deleted meanwhile (a session's last use after its sign-out).
   */
  replaceExisting(key: string, value: string): Promise<void>;
  /**
   * Runs `work` in one transaction that holds lock `name` across nodes from its start to its end, then writes
   * the ops it answers in that transaction (unsynced unless `sync`): a read-modify-write no other node's
   * `transact` of the same name interleaves with. The lock is the transaction's: a node that dies or loses its
   * connection midway lets go of it and wrote nothing. Rejects when `work` throws (nothing written) or the
   * database fails; a connection lost at COMMIT leaves the outcome open (it rejects all the same).
   *
   * @example await shared.transact('usage-flush', async (tx) => ({ ops: plan(await tx.get('k')), result: null }), { sync: false });
   */
  transact<T>(name: string, work: (tx: TransactionReads) => Promise<TransactionWork<T>>, options: { sync: boolean }): Promise<T>;
  /** Closes the listening connection, the locks' and the leases' connections. */
  close(): Promise<void>;
}
