/**
 * The store's contract: what the actors, recovery and the tools ask of wherever the data lives. Two stores
 * keep it: LevelDB in a data directory (`level-store.ts`, the default) and PostgreSQL (`pg/pg-store.ts`, with
 * `DATABASE_URL`); `open-store.ts` picks one. Every caller sees keys and values only (the layout of
 * `keys.ts`), so nothing above this folder learns which store runs.
 */
import type { WriteGate } from './disk-faults.js';
import type { SharedLog } from './shared-log.js';
import type { BatchOp, EntriesOptions } from './store-types.js';

export type { BatchOp, EntriesOptions } from './store-types.js';

/** How a store is opened: the test gate and how often a failing store is probed. */
export interface StoreOptions {
  /** Test seam: consulted before every write (see `disk-faults.ts`). */
  gate?: WriteGate | undefined;
  /** While writes are failing, a probe write is tried this often, so health clears once the store is back. */
  probeMs?: number | undefined;
  /** PostgreSQL: how long opening waits for another process's node lock before refusing (5 s when absent). */
  lockWaitMs?: number | undefined;
  /** False: open only a store that holds flagpole's data already (the offline tools read, never create). */
  create?: boolean | undefined;
  /** An offline tool: PostgreSQL refuses it while nodes serve the database (and nodes wait for it); LevelDB is one process anyway. */
  alone?: boolean | undefined;
}

/**
 * Whether the store takes writes, as it saw them: the last write that failed (until one succeeds), and how
 * long the synced write now in progress has been waiting. Read by `/health` and the metrics.
 */
export interface WriteHealth {
  /** Since when (epoch ms) writes have been failing; null while the last write succeeded. */
  failingSince: number | null;
  /** The last write failure's message (a system error's code and text; never data, a password or a URL). */
  lastError: string | null;
  /** How long the synced write in progress has been waiting, ms (0 when none is). */
  writingForMs: number;
}

/** What a resolved {@link Store.commit} tells its caller. */
export interface CommitReceipt {
  /**
   * The global revision of each log record the ops appended, in the order of the ops (PostgreSQL: one counter
   * for every scope, in commit order, so a reader that sees revision N committed knows every earlier one is);
   * null where the store keeps no such counter (LevelDB: one process, whose commit order is the order).
   */
  revs: readonly number[] | null;
}

/** How a {@link Store.commit} is written, beyond its ops. */
export interface CommitOptions {
  /**
   * The global revision the caller decided on (its node had applied every record up to it, and no later one
   * of another writer): on a store several nodes share, the commit is written only if no other writer has
   * committed a record after it, else it is refused with a {@link StaleBasisError} and nothing of it is
   * written (the caller catches up and decides again). A store one process owns (LevelDB) ignores it.
   */
  basis?: number | undefined;
}

/** Told of every synced batch written: its wall time (ms) and its number of ops (the metrics set it). */
export interface StoreObservers {
  committed?: ((ms: number, ops: number) => void) | undefined;
}

/**
 * A key-value store with group commit. Keys are strings in the layout of `keys.ts`; reads return them in
 * key order (code-unit order of their UTF-8 bytes, as LevelDB sorts them).
 *
 * - {@link commit} is atomic and durable when it resolves; concurrent commits share one write (group commit).
 *   A log record (`<scope>/log/<seq>`) is appended, never overwritten: appending a sequence number that is
 *   taken rejects that caller alone with a {@link LogConflictError}, and the rest of the group is written.
 *   A commit that rejects wrote nothing; when the store cannot tell (the connection died during the write)
 *   it finds out before it settles, so a caller never acts on a guess. A commit with a `basis`
 *   ({@link CommitOptions}) is also checked against what other writers committed since, in the same write.
 * - {@link writeUnsynced}: atomic, not waited to be durable; a later commit makes it so.
 * - {@link writeInSlices}: one atomic write of a very large batch, built a slice at a time.
 *
 * @example
 * const store = await openStore({ dataDir: './data' });
 * await store.commit([{ type: 'put', key: 'a', value: '1' }]);
 */
export interface Store {
  /** `leveldb` or `postgres`: for the start's log line and the tools' messages, never to branch on above this folder. */
  readonly kind: 'leveldb' | 'postgres';
  /** What a write waits for, in words for messages: `the disk` (LevelDB) or `the database` (PostgreSQL). */
  readonly writesTo: 'the disk' | 'the database';
  /** Where the data lives, safe to print: the directory, or the database without its credentials. */
  readonly label: string;
  /** Number of synced batches written, and ops in them; read by the benchmark and tests. */
  readonly stats: { batches: number; ops: number };
  readonly observers: StoreObservers;
  /**
   * What several nodes on this store share (the global log, locks, leases: `shared-log.ts`); null for a store
   * one process owns (LevelDB).
   */
  readonly shared: SharedLog | null;
  /** Writes `ops` atomically and durably, sharing the write with concurrent callers (only if `basis` still holds). */
  commit(ops: BatchOp[], options?: CommitOptions): Promise<CommitReceipt>;
  /** Writes `ops` atomically without waiting for durability; a later synced write makes it durable. */
  writeUnsynced(ops: BatchOp[]): Promise<void>;
  /** Writes `ops` as one atomic batch built `slice` ops at a time, yielding between slices (not grouped). */
  writeInSlices(ops: BatchOp[], options: { sync: boolean; slice?: number }): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /** Entries whose key starts with `prefix`, in key order (or reversed), within the range of `options`. */
  entries(prefix: string, options?: EntriesOptions): AsyncGenerator<[string, string]>;
  /** Keys starting with `prefix`, in key order (or reversed), without reading their values. */
  keys(prefix: string, options?: { reverse?: boolean; limit?: number }): AsyncGenerator<string>;
  /** Whether writes are reaching the store (see {@link WriteHealth}). */
  writeHealth(now?: number): WriteHealth;
  /** Waits for writes in progress, then closes; the store is not used after. */
  close(): Promise<void>;
}

/**
 * A log record was appended at a sequence number its scope's log already holds (another writer appended
 * first). Only the caller whose append conflicted gets it; nothing of its ops was written.
 */
export class LogConflictError extends Error {
  override name = 'LogConflictError';

  constructor(
    /** The scope's key part: `svc` or `p/<projectId>`. */
    readonly scope: string,
    readonly seq: number,
  ) {
    super(`the log of ${scope} already holds a record at ${seq}: another writer appended first`);
  }
}

/**
 * A commit decided on revision `basis` was refused: another writer may have committed a record after it
 * (`CommitOptions.basis`). Only that caller gets it; nothing of its ops was written.
 */
export class StaleBasisError extends Error {
  override name = 'StaleBasisError';

  constructor(readonly basis: number) {
    super(`another writer may have committed after revision ${basis}, which this write was decided on`);
  }
}

/**
 * The store cannot be reached (the database is down or refuses us). The message says what happened, scrubbed
 * of credentials and addresses; `code` is the driver's code or SQLSTATE when there is one.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';

  constructor(message: string, readonly code: string | undefined = undefined) {
    super(message);
  }
}
