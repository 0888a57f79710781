/**
 * Usage counts of flags as SDKs report them (their records: `usage-records.ts`): yes, no and variant counts per (project, flag, environment,
 * hour), and when each flag was last seen in each environment and by which applications. Pure state, no
 * I/O: the usage actor (`src/actors/usage-actor.ts`) feeds it, writes what {@link UsageCounts.plan} gives it
 * and then applies the plan.
 *
 * Two layers: what is **published** (on disk, and the only thing reads see) and what is **pending** (reported
 * since the last flush). A flush turns the pending counts into changes of published records; only once those
 * are written does the plan apply them. So a read never shows a count that a crash could still lose.
 */
import { USAGE_BOUNDS } from '../limits.js';
import { addCounts, NOT_SEEN, oldestKeptHour, hourStart, touchRecent, type CountCell, type CountChange, type CountReport, type FlagSeen, type Plan, type SeenRecord } from './usage-records.js';

interface FlagUsage {
  /** Keyed by `${hour}/${environment}`. */
  cells: Map<string, CountCell>;
  /** Environment → ISO date last seen. */
  environments: Map<string, string>;
  /** Application → ISO date last seen, least recent first. */
  apps: Map<string, string>;
  lastSeenAt: string | null;
}

const emptyUsage = (): FlagUsage => ({ cells: new Map(), environments: new Map(), apps: new Map(), lastSeenAt: null });
const cellKey = (hour: number, environment: string) => `${hour}/${environment}`;
/** Project ids and flag names cannot hold NUL. */
const flagKey = (project: string, flag: string) => `${project}\u0000${flag}`;
const laterOf = (a: string | undefined, b: string): string => (a !== undefined && a > b ? a : b);
const latest = (dates: Iterable<string>): string | null => {
  let max: string | null = null;
  for (const date of dates) if (max === null || date > max) max = date;
  return max;
};

interface PendingFlag {
  project: string;
  flag: string;
  cells: Map<string, CountCell>;
  environments: Map<string, string>;
  apps: Map<string, string>;
}

/**
 * The counts and sightings of every flag. Bounded by the flags that exist (reports of unknown names never
 * reach it), their environments and the 48 h kept; variant names and applications per flag are capped too.
 */
export class UsageCounts {
  private readonly flags = new Map<string, Map<string, FlagUsage>>();
  private readonly versions = new Map<string, number>();
  private pending = new Map<string, PendingFlag>();
  private removed = new Map<string, { project: string; flag: string }>();
  /** The cutoff of the last expiry pass: the next pass is due once the hour moves on. */
  private expiredBefore = Number.NEGATIVE_INFINITY;

  /** Counts one post: the flags of `reports` were evaluated by `appName` in `environment`, received at `at`. */
  record(environment: string, appName: string, at: number, stop: number, reports: readonly CountReport[]): void {
    const hour = hourStart(Math.min(stop, at));
    const counted = hour >= oldestKeptHour(at);
    const seenAt = new Date(at).toISOString();
    for (const report of reports) {
      const id = flagKey(report.project, report.flag);
      let pending = this.pending.get(id);
      if (!pending) {
        pending = { project: report.project, flag: report.flag, cells: new Map(), environments: new Map(), apps: new Map() };
        this.pending.set(id, pending);
      }
      if (counted) {
        const key = cellKey(hour, environment);
        let cell = pending.cells.get(key);
        if (!cell) {
          cell = { hour, environment, yes: 0, no: 0, variants: {} };
          pending.cells.set(key, cell);
        }
        addCounts(cell, report);
      }
      pending.environments.set(environment, seenAt);
      touchRecent(pending.apps, appName, seenAt, USAGE_BOUNDS.applicationsPerFlag);
    }
  }

  /** Drops everything about a flag that no longer exists (at the next flush). */
  forget(project: string, flag: string): void {
    this.removed.set(flagKey(project, flag), { project, flag });
  }

  /**
   * What the next write holds: removals of forgotten flags, hourly buckets past the 48 h, and the pending
   * counts and sightings merged into the published records. Pending state is taken: a plan that is never
   * applied (a failed write) loses that interval, as a crash would.
   */
  plan(now: number): Plan<CountChange> {
    const pending = this.pending;
    const removed = this.removed;
    this.pending = new Map();
    this.removed = new Map();
    const steps: (() => void)[] = [];
    let complete = false;
    const self = this;
    const changes = (function* () {
      yield* self.planChanges(pending, removed, oldestKeptHour(now), steps);
      complete = true;
    })();
    return {
      changes,
      apply: () => {
        if (!complete) throw new Error('UsageCounts: a plan is applied only once all its changes are written');
        for (const step of steps) step();
      },
    };
  }

  private *planChanges(pending: Map<string, PendingFlag>, removed: Map<string, { project: string; flag: string }>, cutoff: number, steps: (() => void)[]): Generator<CountChange> {
    for (const [id, { project, flag }] of removed) {
      pending.delete(id);
      const usage = this.flags.get(project)?.get(flag);
      if (!usage) continue;
      for (const cell of usage.cells.values()) yield { kind: 'cell-removed', project, flag, hour: cell.hour, environment: cell.environment };
      yield { kind: 'seen-removed', project, flag };
      steps.push(() => {
        this.flags.get(project)?.delete(flag);
        this.bump(project);
      });
    }
    if (cutoff > this.expiredBefore) {
      for (const [project, flags] of this.flags) {
        for (const [flag, usage] of flags) {
          if (removed.has(flagKey(project, flag))) continue;
          for (const [key, cell] of usage.cells) {
            if (cell.hour >= cutoff) continue;
            yield { kind: 'cell-removed', project, flag, hour: cell.hour, environment: cell.environment };
            steps.push(() => usage.cells.delete(key));
          }
        }
      }
      steps.push(() => { this.expiredBefore = cutoff; });
    }
    for (const update of pending.values()) yield* this.planMerge(update, cutoff, steps);
  }

  private *planMerge(update: PendingFlag, cutoff: number, steps: (() => void)[]): Generator<CountChange> {
    const { project, flag } = update;
    const published = this.flags.get(project)?.get(flag);
    const cells: CountCell[] = [];
    for (const [key, fresh] of update.cells) {
      if (fresh.hour < cutoff) continue;
      const before = published?.cells.get(key);
      const cell: CountCell = { hour: fresh.hour, environment: fresh.environment, yes: 0, no: 0, variants: {} };
      if (before) addCounts(cell, before);
      addCounts(cell, fresh);
      cells.push(cell);
      yield { kind: 'cell', project, flag, cell };
    }
    // The latest sighting wins: another node may have stored a later one than this node's interval holds.
    const environments = new Map(published?.environments);
    for (const [environment, at] of update.environments) if ((environments.get(environment) ?? '') < at) environments.set(environment, at);
    const apps = new Map(published?.apps);
    for (const [app, at] of update.apps) touchRecent(apps, app, laterOf(apps.get(app), at), USAGE_BOUNDS.applicationsPerFlag);
    yield { kind: 'seen', project, flag, seen: { environments: Object.fromEntries(environments), apps: Object.fromEntries(apps) } };
    steps.push(() => {
      const usage = this.usageOf(project, flag);
      for (const cell of cells) usage.cells.set(cellKey(cell.hour, cell.environment), cell);
      this.setSeen(project, usage, environments, apps);
    });
  }

  private usageOf(project: string, flag: string): FlagUsage {
    let flags = this.flags.get(project);
    if (!flags) {
      flags = new Map();
      this.flags.set(project, flags);
    }
    let usage = flags.get(flag);
    if (!usage) {
      usage = emptyUsage();
      flags.set(flag, usage);
    }
    return usage;
  }

  private setSeen(project: string, usage: FlagUsage, environments: Map<string, string>, apps: Map<string, string>): void {
    usage.environments = environments;
    usage.apps = apps;
    const lastSeenAt = latest(environments.values());
    if (lastSeenAt !== usage.lastSeenAt) {
      usage.lastSeenAt = lastSeenAt;
      this.bump(project);
    }
  }

  private bump(project: string): void {
    this.versions.set(project, (this.versions.get(project) ?? 0) + 1);
  }

  /** A stored hourly bucket, read at start (or from another node's flush). */
  loadCell(project: string, flag: string, cell: CountCell): void {
    this.usageOf(project, flag).cells.set(cellKey(cell.hour, cell.environment), cell);
  }

  /** A stored sighting record, read at start (or from another node's flush). */
  loadSeen(project: string, flag: string, seen: SeenRecord): void {
    const byDate = (a: [string, string], b: [string, string]) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
    const apps = new Map(Object.entries(seen.apps).sort(byDate));
    this.setSeen(project, this.usageOf(project, flag), new Map(Object.entries(seen.environments)), apps);
  }

  /** Drops a stored hourly bucket another node's flush removed. */
  removeCell(project: string, flag: string, hour: number, environment: string): void {
    this.flags.get(project)?.get(flag)?.cells.delete(cellKey(hour, environment));
  }

  /** Drops what is published of a flag whose usage another node's flush removed. */
  removeFlag(project: string, flag: string): void {
    if (this.flags.get(project)?.delete(flag)) this.bump(project);
  }

  /** Forgets every published record, before they are read from the store again (what is pending stays). */
  clearPublished(): void {
    for (const project of this.flags.keys()) this.bump(project);
    this.flags.clear();
  }

  /** After loading: flags that no longer exist (deleted while their usage was not yet written) are forgotten. */
  afterLoad(exists: (project: string, flag: string) => boolean): void {
    for (const [project, flags] of this.flags) {
      for (const flag of flags.keys()) if (!exists(project, flag)) this.forget(project, flag);
    }
  }

  /** Bumped whenever a published `lastSeenAt` of one of the project's flags changes (caches key on it). */
  version(project: string): number {
    return this.versions.get(project) ?? 0;
  }

  /** When the flag was last seen, as published. */
  seen(project: string, flag: string): FlagSeen {
    const usage = this.flags.get(project)?.get(flag);
    return usage ? { lastSeenAt: usage.lastSeenAt, environments: usage.environments } : NOT_SEEN;
  }

  /** The flag's published hourly buckets. */
  cells(project: string, flag: string): CountCell[] {
    return [...(this.flags.get(project)?.get(flag)?.cells.values() ?? [])];
  }

  /** The applications that reported the flag, with when they last did. */
  apps(project: string, flag: string): ReadonlyMap<string, string> {
    return this.flags.get(project)?.get(flag)?.apps ?? new Map();
  }
}
