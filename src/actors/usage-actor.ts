import { CorruptRecordError, decode, encode } from '../../snapshots/codec.js';
import { keys, usageKeyParts } from '../../snapshots/keys.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import { ClientApplications, type ApplicationChange, type ClientApplication, type ClientInstance, type ClientSighting } from '../domain/client-applications.js';
import { UsageCounts } from '../domain/usage-counts.js';
import type { CountChange, CountReport, Counts, SeenRecord } from '../domain/usage-records.js';
import type { Logger } from '../log.js';
import type { CommittedBatch, CommittedFeed } from './committed-feed.js';

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

/** An hour as a key part: `2026-11-23T19`. */
const hourPart = (hour: number) => new Date(hour).toISOString().slice(0, 13);
const parseHour = (part: string) => Date.parse(`${part}:00:00.000Z`);

/**
 * The usage metrics of the service: counts, sightings, applications and instances, gathered in memory from
 * SDK posts and written to LevelDB every `flushMs` in one batch, **outside the command log**: a metrics post
 * never goes through a project's mailbox, never moves a flag's version or `ETag`, never shares a batch with
 * a flag write. Loaded at start, flushed at close; a crash loses what was gathered since the last flush.
 *
 * Flushes use an unsynced write (LevelDB's log reaches the OS at once, so a process crash keeps it; the next
 * synced write of any command, or the OS within seconds, makes it durable) so they never hold up a flag write
 * behind an fsync; the flush at close is synced.
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
  /** Flushes written, the count buckets (hour, flag, environment) they wrote, and flushes that failed; read by the metrics. */
  readonly stats = { flushes: 0, bucketsFlushed: 0, failedFlushes: 0 };

  private constructor(private readonly store: Store, feed: CommittedFeed, private readonly options: UsageActorOptions) {
    // A deleted flag takes its usage with it: a flag created again under its name starts unseen.
    this.unsubscribe = feed.subscribe((batch) => this.committed(batch));
  }

  /** Loads what the store holds under `use/` and starts the flush timer. */
  static async open(store: Store, feed: CommittedFeed, options: UsageActorOptions): Promise<UsageActor> {
    const actor = new UsageActor(store, feed, options);
    await actor.load();
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

  /** Stops the timer and writes the last interval (synced). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe();
    await this.flush(undefined, true);
    this.stopped = true;
  }

  /** Stops without writing what is pending: what a crash does (tests). */
  abandon(): void {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe();
    this.stopped = true;
  }

  private async flushOnce(now: number, sync: boolean): Promise<void> {
    if (this.stopped) return;
    const ops: BatchOp[] = this.junk.map((key) => ({ type: 'del' as const, key }));
    this.junk = [];
    let buckets = 0;
    let skipped = 0;
    const examples: string[] = [];
    const unwritable: ApplicationChange[] = [];
    // One record that cannot be written (no key can hold its name) is left out and reported: never the others.
    const add = (build: () => BatchOp, what: () => string): boolean => {
      try {
        ops.push(build());
        return true;
      } catch (error) {
        skipped += 1;
        if (examples.length < 5) examples.push(`${what()}: ${(error as Error).message}`);
        return false;
      }
    };
    // Planned, encoded and written inside one handler: whatever throws loses this interval, reported and counted, and
    // never escapes to the timer or to `close` (a stop must go on to the final snapshots).
    try {
      const counts = this.counts.plan(now);
      const apps = this.applications.plan(now);
      // A flush of many flags is planned and encoded in slices, yielding between them, so requests keep flowing.
      for (const change of counts.changes) {
        buckets += 1;
        add(() => countOp(change), () => `the usage of ${JSON.stringify(change.flag)} in project ${JSON.stringify(change.project)}`);
        if (ops.length % SLICE === 0) await yieldToEventLoop();
      }
      for (const change of apps.changes) {
        if (!add(() => applicationOp(change), () => `the application ${JSON.stringify(change.kind === 'app' ? change.app.appName : change.kind === 'instance' ? change.instance.appName : change.appName)}`)) unwritable.push(change);
        if (ops.length % SLICE === 0) await yieldToEventLoop();
      }
      if (ops.length > 0) await this.store.writeInSlices(ops, { sync, slice: SLICE });
      counts.apply();
      apps.apply();
      // What was not written is not shown either: a restart would not show it.
      for (const change of unwritable) {
        if (change.kind === 'app') this.applications.forget(change.app.appName);
        else if (change.kind === 'instance') this.applications.forget(change.instance.appName, change.instance.instanceId);
      }
    } catch (error) {
      this.options.log.warn({ err: error, ops: ops.length }, 'usage metrics: the flush failed; this interval of counts is lost');
      this.stats.failedFlushes += 1;
      return;
    }
    if (skipped > 0) {
      this.options.log.warn({ records: skipped, first: examples }, 'usage metrics: records the store cannot hold were left out of the flush; the rest was written');
      this.stats.failedFlushes += 1;
    } else if (ops.length > 0) {
      this.stats.flushes += 1;
    }
    this.stats.bucketsFlushed += buckets;
  }

  private committed(batch: CommittedBatch): void {
    if (batch.scope === 'service') return;
    for (const record of batch.records) {
      for (const event of record.events as { type?: string; name?: string }[]) {
        if (event.type === 'flag.deleted' && typeof event.name === 'string') this.counts.forget(batch.scope.project, event.name);
      }
    }
  }

  private async load(): Promise<void> {
    for await (const [key, value] of this.store.entries(keys.usagePrefix)) {
      try {
        this.loadEntry(key, value);
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

  private loadEntry(key: string, value: string): void {
    const bad = (reason: string) => new CorruptRecordError(key, reason);
    if (key.startsWith(keys.usageCountsPrefix)) {
      const [hour, project, flag, environment, ...rest] = usageKeyParts(key, keys.usageCountsPrefix);
      const ms = parseHour(hour ?? '');
      if (!project || !flag || !environment || rest.length > 0 || !Number.isFinite(ms)) throw bad('not a usage count key');
      const counts = decode<Counts>(key, value);
      this.counts.loadCell(project, flag, { hour: ms, environment, yes: counts.yes, no: counts.no, variants: counts.variants ?? {} });
    } else if (key.startsWith(keys.usageSeenPrefix)) {
      const [project, flag, ...rest] = usageKeyParts(key, keys.usageSeenPrefix);
      if (!project || !flag || rest.length > 0) throw bad('not a usage sighting key');
      this.counts.loadSeen(project, flag, decode<SeenRecord>(key, value));
    } else if (key.startsWith(keys.usageAppsPrefix)) {
      this.applications.loadApp(decode<ClientApplication>(key, value));
    } else if (key.startsWith(keys.usageInstancesPrefix)) {
      this.applications.loadInstance(decode<ClientInstance>(key, value));
    } else {
      throw bad('unknown usage key');
    }
  }
}

function countOp(change: CountChange): BatchOp {
  switch (change.kind) {
    case 'cell': {
      const { hour, environment, yes, no, variants } = change.cell;
      return { type: 'put', key: keys.usageCount(hourPart(hour), change.project, change.flag, environment), value: encode({ yes, no, variants }) };
    }
    case 'cell-removed':
      return { type: 'del', key: keys.usageCount(hourPart(change.hour), change.project, change.flag, change.environment) };
    case 'seen':
      return { type: 'put', key: keys.usageSeen(change.project, change.flag), value: encode(change.seen) };
    case 'seen-removed':
      return { type: 'del', key: keys.usageSeen(change.project, change.flag) };
  }
}

function applicationOp(change: ApplicationChange): BatchOp {
  switch (change.kind) {
    case 'app':
      return { type: 'put', key: keys.usageApp(change.app.appName), value: encode(change.app) };
    case 'app-removed':
      return { type: 'del', key: keys.usageApp(change.appName) };
    case 'instance':
      return { type: 'put', key: keys.usageInstance(change.instance.appName, change.instance.instanceId), value: encode(change.instance) };
    case 'instance-removed':
      return { type: 'del', key: keys.usageInstance(change.appName, change.instanceId) };
  }
}
