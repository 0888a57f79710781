import type { Scope } from '../../snapshots/keys.js';
import type { Lease } from '../../snapshots/shared-log.js';
import type { Logger } from '../log.js';
import type { CommittedRecord } from './actor-model.js';

/** How every actor of a registry batches, snapshots, waits for the disk and reports. */
export interface ActorOptions {
  /**
   * Snapshot after at least this many commands, and once the log has grown by `SNAPSHOT_LOG_FACTOR`
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
   * Told of every batch once it is on disk and published (this node's, or another node's in the global
   * order): the scope, its records in order, and the node's revision after it. Called synchronously before
   * the replies go out; a listener must only take note (see `CommittedFeed`).
   */
  onCommit?: ((scope: Scope, records: readonly CommittedRecord[], revision: number) => void) | undefined;
  /**
   * How long a batch may wait for the disk before its callers are answered with a `StorageError`
   * (`WRITE_TIMEOUT_MS`); the batch itself is still awaited, and published if it lands later.
   */
  writeTimeoutMs?: number | undefined;
  /** Told of every snapshot written: its wall time (ms) and stored bytes. */
  onSnapshot?: ((ms: number, bytes: number) => void) | undefined;
  /** On a store several nodes share, the lease whose holder writes snapshots (and trims logs); this node writes them when absent. */
  snapshotLease?: Lease | undefined;
  /**
   * The clock a batch's time (`at`) is read from, in ms since the epoch; absent: `Date.now`. Tests move it to
   * see a schedule fall (docs/architecture.md "Change requests").
   */
  now?: (() => number) | undefined;
  /** Told of every batch written: the commands committed in it, by type (the metrics count them). */
  onCommitted?: ((types: readonly string[]) => void) | undefined;
}

/** The default of `WRITE_TIMEOUT_MS`. */
export const DEFAULT_WRITE_TIMEOUT_MS = 10_000;
