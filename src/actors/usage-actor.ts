import { CorruptRecordError } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { TransactionReads } from '../../snapshots/shared-log.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import { ClientApplications, type ApplicationChange, type ClientSighting } from '../domain/client-applications.js';
import { UsageCounts } from '../domain/usage-counts.js';
import type { CountReport } from '../domain/usage-records.js';
import type { Logger } from '../log.js';
import type { CommittedBatch, CommittedFeed } from './committed-feed.js';
import { USAGE_FLUSHED, UsageJournal } from './usage-journal.js';
import { applicationOp, applyStored, countOp, loadStored } from './usage-keys.js';

export interface UsageActorOptions {
  /** Milliseconds between two flushes (`METRICS_FLUSH_SECONDS`). */
  flushMs: number;
  log: Logger;
  /** Whether a project holds a flag of that name (archived ones too). */
  exists(project: string, flag: string): boolean;
}

/** One metrics post, resolved: who sent it, where, and the counts of the flags that exist. */
export interface MetricsReport {
  sighting: ClientSighting;
  /** When it was received, and the end of the SDK's bucket (ms). */
  at: number;
  stop: number;
  counts: readonly CountReport[];
}

/** Changes planned and encoded between two yields to the event loop (a few milliseconds of work). */
const SLICE = 500;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One interval planned: the ops that write it, what a written one publishes, and what could not be written. */
interface PlannedInterval {
  ops: BatchOp[];
  apply(): void;
  buckets: number;
  skipped: number;
  examples: string[];
}

/**
 * The usage metrics of the service: counts, sightings, applications and instances, gathered in memory from
 * SDK posts and written to LevelDB every `flushMs` in one batch, **outside the command log**: a metrics post
 * never goes through a project's mailbox, never moves a flag's version or `ETag`, never shares a batch with
 * a flag write. Loaded at start, flushed at close; a crash loses what was gathered since the last flush.
 *
 * Flushes use an unsynced write (LevelDB's log reaches the OS at once, so a process crash keeps it; the next
 * synced write of any command, or the OS within seconds, makes it durable) so they never hold up a flag write
 * behind an fsync; the flush at close is synced.
 *
 * On a store several nodes share, each node adds what it received to what every node flushed, in one transaction
 * of the store that holds the flush lock of every node, and reads the other nodes' flushes (`UsageJournal`):
 * what it stores and shows is the sum of every node's, each post counted once.
 */
export class UsageActor {
  readonly counts = new UsageCounts();
  readonly applications = new ClientApplications();
  /** Keys found damaged at load, deleted by the first flush. */
  private junk: string[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly unsubscribe: () => void;
  /** On a store several nodes share: the numbered flushes of every node, and the signal that tells of them. */
  private readonly journal: UsageJournal | null;
  private unsubscribeSignals: () => void = () => undefined;
  /** Flushes written, the count buckets (hour, flag, environment) they wrote, and flushes that failed; read by the metrics. */
  readonly stats = { flushes: 0, bucketsFlushed: 0, failedFlushes: 0 };

  private constructor(private readonly store: Store, feed: CommittedFeed, private readonly options: UsageActorOptions) {
    // A deleted flag takes its usage with it: a flag created again under its name starts unseen.
    this.unsubscribe = feed.subscribe((batch) => this.committed(batch));
    this.journal = store.shared ? new UsageJournal(store.shared) : null;
  }

  /** Loads what the store holds under `use/` (and what other nodes flushed meanwhile) and starts the flush timer. */
  static async open(store: Store, feed: CommittedFeed, options: UsageActorOptions): Promise<UsageActor> {
    const actor = new UsageActor(store, feed, options);
    const journal = actor.journal;
    if (journal) {
      actor.unsubscribeSignals = store.shared!.onSignal((signal) => {
        if (signal === null || (signal.topic === USAGE_FLUSHED && Number(signal.message) > journal.generation)) void actor.follow();
      });
      journal.generation = await journal.head(store);
    }
    await actor.load(store);
    if (journal) await actor.catchUp(store);
    actor.timer = setInterval(() => void actor.flush(), options.flushMs);
    actor.timer.unref();
    return actor;
  }

  /** Counts a metrics post (and the instance it came from) for the next flush. */
  recordMetrics(report: MetricsReport): void {
    if (this.stopped) return;
    this.counts.record(report.sighting.environment, report.sighting.appName, report.at, report.stop, report.counts);
    this.applications.record(report.sighting);
  }

  /** Notes a registration for the next flush. */
  recordRegistration(sighting: ClientSighting): void {
    if (!this.stopped) this.applications.record(sighting);
  }

  /** Writes what was gathered since the last flush in one batch, then publishes it; one flush at a time. */
  flush(now?: number, sync = false): Promise<void> {
    const next = this.running.then(() => this.flushOnce(now ?? Date.now(), sync));
    this.running = next.catch(() => undefined);
    return next;
  }

  /** On a store several nodes share: reads the flushes other nodes wrote since this node last did (one at a time with flushes). */
  follow(): Promise<void> {
    const next = this.running.then(() => (this.stopped ? undefined : this.catchUp(this.store)));
    this.running = next.catch((error: unknown) => this.options.log.warn({ err: error }, 'usage metrics: reading other nodes\' flushes failed; the next flush reads them'));
    return this.running;
  }

  /** Stops the timer and writes the last interval (synced). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe();
    this.unsubscribeSignals();
    await this.flush(undefined, true);
    this.stopped = true;
  }

  /** Stops without writing what is pending: what a crash does (tests). */
  abandon(): void {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe();
    this.unsubscribeSignals();
    this.stopped = true;
  }

  private async flushOnce(now: number, sync: boolean): Promise<void> {
    if (this.stopped) return;
    const journal = this.journal;
    let planned = false;
    try {
      if (!journal) {
        planned = true;
        const interval = await this.planInterval(now);
        if (interval.ops.length > 0) await this.store.writeInSlices(interval.ops, { sync, slice: SLICE });
        this.written(interval);
        return;
      }
      // Several nodes: under the flush lock, what the others flushed is read first, so the sums written are of every node.
      const interval = await journal.transact(async (tx) => {
        await this.catchUp(tx);
        planned = true;
        const interval = await this.planInterval(now);
        return { ops: interval.ops.length > 0 ? [...interval.ops, ...journal.entryOps(interval.ops)] : [], result: interval };
      }, sync);
      this.written(interval);
      if (interval.ops.length > 0) await journal.written().catch((error: unknown) => this.options.log.warn({ err: error }, 'usage metrics: telling the other nodes of a flush failed; they read it at their next flush'));
    } catch (error) {
      if (planned) this.options.log.warn({ err: error }, 'usage metrics: the flush failed; this interval of counts is lost');
      else this.options.log.warn({ err: error }, 'usage metrics: other nodes\' flushes could not be read; what this node gathered waits for the next flush');
      this.stats.failedFlushes += 1;
    }
  }

  /**
   * Plans what was gathered since the last flush as the ops that write it (merged into what is published);
   * whatever throws here or in the write loses this interval, reported and counted, and never escapes to the
   * timer or to `close` (a stop must go on to the final snapshots).
   */
  private async planInterval(now: number): Promise<PlannedInterval> {
    const ops: BatchOp[] = this.junk.map((key) => ({ type: 'del' as const, key }));
    this.junk = [];
    const interval: PlannedInterval = { ops, apply: () => undefined, buckets: 0, skipped: 0, examples: [] };
    const unwritable: ApplicationChange[] = [];
    // One record that cannot be written (no key can hold its name) is left out and reported: never the others.
    const add = (build: () => BatchOp, what: () => string): boolean => {
      try {
        ops.push(build());
        return true;
      } catch (error) {
        interval.skipped += 1;
        if (interval.examples.length < 5) interval.examples.push(`${what()}: ${(error as Error).message}`);
        return false;
      }
    };
    const counts = this.counts.plan(now);
    const apps = this.applications.plan(now);
    // A flush of many flags is planned and encoded in slices, yielding between them, so requests keep flowing.
    for (const change of counts.changes) {
      interval.buckets += 1;
      add(() => countOp(change), () => `the usage of ${JSON.stringify(change.flag)} in project ${JSON.stringify(change.project)}`);
      if (ops.length % SLICE === 0) await yieldToEventLoop();
    }
    for (const change of apps.changes) {
      if (!add(() => applicationOp(change), () => `the application ${JSON.stringify(change.kind === 'app' ? change.app.appName : change.kind === 'instance' ? change.instance.appName : change.appName)}`)) unwritable.push(change);
      if (ops.length % SLICE === 0) await yieldToEventLoop();
    }
    interval.apply = () => {
      counts.apply();
      apps.apply();
      // What was not written is not shown either: a restart would not show it.
      for (const change of unwritable) {
        if (change.kind === 'app') this.applications.forget(change.app.appName);
        else if (change.kind === 'instance') this.applications.forget(change.instance.appName, change.instance.instanceId);
      }
    };
    return interval;
  }

  /** After an interval's ops are written: publishes them, counts and reports. */
  private written(interval: PlannedInterval): void {
    interval.apply();
    if (interval.skipped > 0) {
      this.options.log.warn({ records: interval.skipped, first: interval.examples }, 'usage metrics: records the store cannot hold were left out of the flush; the rest was written');
      this.stats.failedFlushes += 1;
    } else if (interval.ops.length > 0) {
      this.stats.flushes += 1;
    }
    this.stats.bucketsFlushed += interval.buckets;
  }

  private committed(batch: CommittedBatch): void {
    if (batch.scope === 'service') return;
    for (const record of batch.records) {
      for (const event of record.events as { type?: string; name?: string }[]) {
        if (event.type === 'flag.deleted' && typeof event.name === 'string') this.counts.forget(batch.scope.project, event.name);
      }
    }
  }

  /** Shared store: applies the flushes other nodes wrote since this node's last; reads every record again when some are no longer kept. */
  private async catchUp(reads: TransactionReads): Promise<void> {
    const journal = this.journal!;
    for (;;) {
      const read = await journal.since(reads);
      if (read) {
        for (const [key, value] of read.changes) applyStored(this.counts, this.applications, key, value);
        journal.generation = read.head;
        return;
      }
      this.options.log.info('usage metrics: this node is further behind the other nodes\' flushes than they are kept; reading every usage record again');
      journal.generation = await journal.head(reads);
      this.counts.clearPublished();
      this.applications.clearPublished();
      await this.load(reads);
    }
  }

  private async load(reads: TransactionReads): Promise<void> {
    // Every record but the journal of several nodes' flushes (`use/z/`, after every record in key order) and its number.
    for await (const [key, value] of reads.entries(keys.usagePrefix, { lte: keys.usageJournalPrefix.slice(0, -1) })) {
      if (key === keys.usageGeneration) continue;
      try {
        loadStored(this.counts, this.applications, key, value);
      } catch (error) {
        // Usage is not worth a failed start: a damaged entry is reported and dropped.
        const message = error instanceof CorruptRecordError ? error.message : `corrupt record at key ${JSON.stringify(key)}: ${(error as Error).message}`;
        this.options.log.warn({ key }, `usage metrics: ${message}; the entry is dropped`);
        this.junk.push(key);
      }
    }
    this.counts.afterLoad(this.options.exists);
    this.applications.afterLoad();
  }
}
