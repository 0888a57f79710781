import type { Scope } from '../../snapshots/keys.js';
import { pruneSnapshots, writeSnapshot } from '../../snapshots/snapshot-writer.js';
import type { Store } from '../../snapshots/store.js';
import { SNAPSHOT_REPLAY_RECORDS, SNAPSHOTS_SPREAD } from '../limits.js';
import type { ActorOptions } from './actor-options.js';

/**
 * A snapshot is due once the log has grown by this many times the last snapshot's size: replay after a crash
 * stays within a few times the state's size, and saving a large state costs half as much as the log writes
 * that led to it.
 */
export const SNAPSHOT_LOG_FACTOR = 2;

/** What a snapshot holds: a small meta value and a list of immutable items (`Model.snapshotOf`). */
export type SnapshotContent = { meta: unknown; items: readonly unknown[] };

/** What a {@link SnapshotSchedule} needs: where to write, under which scope and machine versions, and its options. */
export interface SnapshotScheduleParts {
  store: Store;
  scope: Scope;
  machines: Readonly<Record<string, number>>;
  options: Pick<ActorOptions, 'snapshotEvery' | 'logRetention' | 'log' | 'onSnapshot'>;
  /** Stored size of the latest snapshot (as recovered). */
  bytes: number;
}

/**
 * When one actor's snapshots are due, and their writing: after `snapshotEvery` records once the log has grown
 * past {@link SNAPSHOT_LOG_FACTOR} times the last snapshot (once past one time after `SNAPSHOT_REPLAY_RECORDS`). A failed snapshot loses nothing (the log holds
 * every command): it is reported and tried again after the next batch.
 *
 * @example schedule.logged(2, 480); schedule.writeIfDue(seq, () => model.snapshotOf(state));
 */
export class SnapshotSchedule {
  private records = 0;
  private logBytes = 0;
  private writing: Promise<void> | null = null;
  private bytes: number;

  constructor(private readonly parts: SnapshotScheduleParts) {
    this.bytes = parts.bytes;
  }

  /** Notes `records` log records of `bytes` stored characters, written since the last snapshot. */
  logged(records: number, bytes: number): void {
    this.records += records;
    this.logBytes += bytes;
  }

  /** Log records written since the last snapshot (what a restart would replay on top of it). */
  get recordsSince(): number {
    return this.records;
  }

  /** Starts a snapshot of what `capture` gives when one is due and none is being written; a failure is reported. */
  writeIfDue(seq: number, capture: () => SnapshotContent): void {
    if (this.writing) return;
    if (this.records < this.parts.options.snapshotEvery) return;
    // Past SNAPSHOT_REPLAY_RECORDS the factor drops to one, so a past view's replay from a snapshot stays short.
    const factor = this.records >= SNAPSHOT_REPLAY_RECORDS ? 1 : SNAPSHOT_LOG_FACTOR;
    if (this.logBytes < factor * this.bytes) return;
    this.write(seq, capture).catch((error: unknown) => this.reportFailure(error));
  }

  /**
   * Writes a snapshot of what `capture` gives now, as of log position `seq` (nothing when no record was
   * written since the last); concurrent calls share one write.
   */
  write(seq: number, capture: () => SnapshotContent): Promise<void> {
    if (this.writing) return this.writing;
    if (this.records === 0) return Promise.resolve();
    const { meta, items } = capture();
    this.records = 0;
    this.logBytes = 0;
    const { store, scope, machines, options } = this.parts;
    this.writing = (async () => {
      try {
        const started = performance.now();
        this.bytes = await writeSnapshot(store, scope, { seq, at: new Date().toISOString(), machines, meta }, items);
        options.onSnapshot?.(performance.now() - started, this.bytes);
        await pruneSnapshots(store, scope, { newest: 2, spread: SNAPSHOTS_SPREAD }, options.logRetention);
      } finally {
        this.writing = null;
      }
    })();
    return this.writing;
  }

  /** The snapshot being written: resolves when it is written, rejects when it failed; resolved when none is. */
  idle(): Promise<void> {
    return this.writing ?? Promise.resolve();
  }

  /** Reports a failed snapshot and makes the next batch try again. */
  reportFailure(error: unknown): void {
    const { scope, options } = this.parts;
    this.records = Math.max(this.records, options.snapshotEvery);
    options.log.error({ scope, err: error }, `snapshot of ${JSON.stringify(scope)} failed; the log still holds every command`);
  }
}
