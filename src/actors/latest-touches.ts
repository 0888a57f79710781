/** A flag a committed record changed: in one environment, or in all of them (`environment: null`). */
export interface FlagTouch {
  project: string;
  name: string;
  environment: string | null;
}

/** A (project, flag, environment) the history names, once, and the latest revision that touched it. */
interface Latest {
  readonly touch: FlagTouch;
  revision: number;
}

/** The environment key of a change to a flag in every environment (no environment is named with a control character). */
const ALL = '\u0001';

/**
 * The latest revision of each (flag, environment) and each segment the feed's history touches, in the order
 * of those revisions: a client many changes behind is answered from these (one per flag touched) instead of
 * from every entry since. Each touch is one object per (project, flag, environment), shared by every history
 * entry that names it, so a write that touches a flag already named leaves no object behind.
 *
 * @example const touch = latest.flag('default', 'checkout', 'production', 42); latest.since(40, onFlag, onSegment);
 */
export class LatestTouches {
  /** The latest touch of each (project, flag, environment), in the order of their revisions. */
  private readonly flags = new Set<Latest>();
  /**
   * The same, found by project, environment (`ALL` for a change to every one) and flag name: names that are
   * there already, not a key built and hashed per touch.
   */
  private readonly byName = new Map<string, Map<string, Map<string, Latest>>>();
  /** The latest revision of each segment, in that order. */
  private readonly segments = new Map<number, number>();

  /** How many flag touches are kept (one per project, flag and environment). */
  get flagCount(): number {
    return this.flags.size;
  }

  /** How many flag touches and segments are kept. */
  get count(): number {
    return this.flags.size + this.segments.size;
  }

  /** Notes that flag `name` of `project` changed in `environment` (null: every one) at `revision`; the shared touch. */
  flag(project: string, name: string, environment: string | null, revision: number): FlagTouch {
    const byName = this.namesOf(project, environment);
    let latest = byName.get(name);
    if (latest) {
      // Moved to the end: its revision only grows.
      this.flags.delete(latest);
      latest.revision = revision;
    } else {
      latest = { touch: { project, name, environment }, revision };
      byName.set(name, latest);
    }
    this.flags.add(latest);
    return latest.touch;
  }

  /** Notes that segment `id` changed at `revision`. */
  segment(id: number, revision: number): void {
    this.segments.delete(id);
    this.segments.set(id, revision);
  }

  /** Calls `onFlag` and `onSegment` for each touch after `revision`, in the order of their latest revisions. */
  since(revision: number, onFlag: (touch: FlagTouch, revision: number) => void, onSegment: (id: number, revision: number) => void): void {
    for (const latest of this.flags) if (latest.revision > revision) onFlag(latest.touch, latest.revision);
    for (const [id, at] of this.segments) if (at > revision) onSegment(id, at);
  }

  /**
   * Drops the touches at or below `floor` (no client the history serves is before them). An entry kept names
   * only touches above it: each touch's latest revision is at least that of any entry naming it.
   */
  forgetUpTo(floor: number): void {
    for (const latest of this.flags) {
      if (latest.revision > floor) break;
      this.flags.delete(latest);
      const { project, name, environment } = latest.touch;
      const byEnvironment = this.byName.get(project)!;
      const byName = byEnvironment.get(environment ?? ALL)!;
      byName.delete(name);
      if (byName.size === 0) byEnvironment.delete(environment ?? ALL);
      if (byEnvironment.size === 0) this.byName.delete(project);
    }
    for (const [id, at] of this.segments) {
      if (at > floor) break;
      this.segments.delete(id);
    }
  }

  /** The latest touches of one project in one environment (or in all of them), by flag name. */
  private namesOf(project: string, environment: string | null): Map<string, Latest> {
    let byEnvironment = this.byName.get(project);
    if (!byEnvironment) this.byName.set(project, (byEnvironment = new Map()));
    let byName = byEnvironment.get(environment ?? ALL);
    if (!byName) byEnvironment.set(environment ?? ALL, (byName = new Map()));
    return byName;
  }
}
