/**
 * What a change changes, as it was when the change was added (its snapshot), and conflicts: a change whose
 * target moved since then. Unleash's rule for an overwrite: the value when added differs from the value now,
 * and the value now differs from the one proposed. A flag archived or deleted, a strategy or segment gone, are
 * conflicts of their own. Read by the request's view (per flag and per change, with the three values) and by
 * the apply (which answers the conflicts it overwrote, and suspends a schedule that meets one).
 */
import type { Change, ChangeBody, ChangeRequest } from './change-request.js';
import { own } from './dict.js';
import type { Segment } from './segment.js';
import type { Flag, Strategy } from './types.js';

/** Where a snapshot or a conflict reads the project and the service from. */
export interface ConflictSources {
  flag(name: string): Flag | undefined;
  segment(id: number): Segment | undefined;
}

/** One change whose target moved: why, and the value when the change was added, now, and proposed. */
export interface ChangeConflict {
  changeId: number;
  feature: string | null;
  conflict: string;
  whenAdded: unknown;
  now: unknown;
  proposed: unknown;
}

/** The conflicts of a request: per flag (archived, deleted) and per change. */
export interface RequestConflicts {
  features: Map<string, string>;
  changes: ChangeConflict[];
}

const strategyOf = (flag: Flag | undefined, environment: string, id: string): Strategy | undefined =>
  flag ? own(flag.environments, environment)?.strategies.find((s) => s.id === id) : undefined;

/** What `change` changes, now (its snapshot when it is added); undefined where it changes nothing that exists. */
export function snapshotOf(change: ChangeBody, environment: string, sources: ConflictSources): unknown {
  const flag = change.feature ? sources.flag(change.feature) : undefined;
  switch (change.action) {
    case 'updateEnabled':
      return flag ? { enabled: own(flag.environments, environment)?.enabled ?? false } : undefined;
    case 'addStrategy':
      return undefined;
    case 'updateStrategy':
    case 'deleteStrategy':
      return strategyOf(flag, environment, change.payload.id);
    case 'reorderStrategy':
      return change.payload.map((o) => ({ id: o.id, sortOrder: strategyOf(flag, environment, o.id)?.sortOrder ?? null }));
    case 'patchVariant':
      return flag?.variants;
    case 'archiveFeature':
      return flag ? { archived: flag.archived } : undefined;
    case 'addDependency':
      return flag ? (flag.dependencies ?? []).find((d) => d.feature === change.payload.feature) ?? null : undefined;
    case 'deleteDependency':
      return flag ? (flag.dependencies ?? []).filter((d) => change.payload?.feature === undefined || d.feature === change.payload.feature) : undefined;
    case 'updateSegment':
    case 'deleteSegment':
      return sources.segment(change.payload.id);
  }
}

/** Values compared as JSON with sorted keys (stored values come back from the log in another key order). */
export function sameValue(a: unknown, b: unknown): boolean {
  return sorted(a) === sorted(b);
}

function sorted(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
    : v));
}

/** A strategy as compared: what a client can set (not its id or place). */
const strategyContent = (s: { [K in keyof Strategy]?: unknown } | undefined) => s && {
  name: s.name, title: s.title ?? null, disabled: s.disabled ?? false, constraints: s.constraints ?? [], parameters: s.parameters ?? {},
  variants: s.variants ?? [], segments: s.segments ?? [],
};

const segmentContent = (s: Partial<Segment> | undefined) => s && { name: s.name, description: s.description ?? null, project: s.project ?? null, constraints: s.constraints };

/** Unleash's overwrite: moved since added, and now not what is proposed. */
const overwrites = (whenAdded: unknown, now: unknown, proposed: unknown) => !sameValue(whenAdded, now) && !sameValue(now, proposed);

/** The conflict of one change, or null. */
function changeConflict(change: Change, environment: string, sources: ConflictSources): Omit<ChangeConflict, 'changeId' | 'feature'> | null {
  const flag = change.feature ? sources.flag(change.feature) : undefined;
  const found = (conflict: string, whenAdded: unknown, now: unknown, proposed: unknown) => ({ conflict, whenAdded, now, proposed });
  switch (change.action) {
    case 'updateEnabled': {
      const now = { enabled: flag ? own(flag.environments, environment)?.enabled ?? false : false };
      const proposed = { enabled: change.payload.enabled };
      return change.snapshot !== undefined && overwrites(change.snapshot, now, proposed) ? found(`The flag was switched ${now.enabled ? 'on' : 'off'} in ${environment} since this change was added`, change.snapshot, now, proposed) : null;
    }
    case 'updateStrategy':
    case 'deleteStrategy': {
      const now = strategyOf(flag, environment, change.payload.id);
      if (!now) return flag ? found('Strategy has been deleted', change.snapshot, null, change.action === 'deleteStrategy' ? null : change.payload) : null;
      const proposed = change.action === 'deleteStrategy' ? null : { ...now, ...change.payload };
      const moved = !sameValue(strategyContent(change.snapshot as Strategy | undefined), strategyContent(now));
      const overwritten = change.action === 'deleteStrategy' ? moved : moved && !sameValue(strategyContent(now), strategyContent(proposed ?? undefined));
      return overwritten ? found('Strategy has been updated since this change was added', change.snapshot, now, proposed) : null;
    }
    case 'reorderStrategy': {
      const now = change.payload.map((o) => ({ id: o.id, sortOrder: strategyOf(flag, environment, o.id)?.sortOrder ?? null }));
      if (flag && now.some((o) => o.sortOrder === null)) return found('Strategy has been deleted', change.snapshot, now, change.payload);
      return overwrites(change.snapshot, now, change.payload) ? found('The order of the strategies changed since this change was added', change.snapshot, now, change.payload) : null;
    }
    case 'patchVariant': {
      const now = flag?.variants ?? [];
      return overwrites(change.snapshot ?? [], now, change.payload.variants) ? found('Variants have been updated since this change was added', change.snapshot, now, change.payload.variants) : null;
    }
    case 'addDependency': {
      const now = flag ? (flag.dependencies ?? []).find((d) => d.feature === change.payload.feature) ?? null : null;
      return overwrites(change.snapshot ?? null, now, change.payload) ? found('The dependency has been changed since this change was added', change.snapshot, now, change.payload) : null;
    }
    case 'deleteDependency': {
      const now = flag ? (flag.dependencies ?? []).filter((d) => change.payload?.feature === undefined || d.feature === change.payload.feature) : [];
      return !sameValue(change.snapshot ?? [], now) ? found('Dependencies have been changed since this change was added', change.snapshot, now, []) : null;
    }
    case 'updateSegment':
    case 'deleteSegment': {
      const now = sources.segment(change.payload.id);
      const proposed = change.action === 'deleteSegment' ? null : change.payload;
      if (!now) return found('Segment has been deleted', change.snapshot, null, proposed);
      const moved = !sameValue(segmentContent(change.snapshot as Segment | undefined), segmentContent(now));
      const overwritten = change.action === 'deleteSegment' ? moved : moved && !sameValue(segmentContent(now), segmentContent(change.payload));
      return overwritten ? found('Segment has been updated since this change was added', change.snapshot, now, proposed) : null;
    }
    default:
      return null;
  }
}

/**
 * The conflicts of `request` against the state `sources` read: a flag archived or deleted since (Unleash's
 * feature-level `conflict`), and each change whose target moved (its change-level `conflict`, with the three values).
 *
 * @example const { features, changes } = conflictsOf(request, { flag: (n) => state.flags.get(n), segment: (id) => segments[id] });
 */
export function conflictsOf(request: ChangeRequest, sources: ConflictSources): RequestConflicts {
  const features = new Map<string, string>();
  const changes: ChangeConflict[] = [];
  for (const change of request.changes) {
    const feature = change.feature ?? null;
    if (feature !== null && !features.has(feature)) {
      const flag = sources.flag(feature);
      if (!flag) features.set(feature, 'Feature has been deleted');
      else if (flag.archived) features.set(feature, 'Feature has been archived');
    }
    const conflict = changeConflict(change, request.environment, sources);
    if (conflict) changes.push({ changeId: change.id, feature, ...conflict });
  }
  return { features, changes };
}

/** Every conflict of a request in a line each (what an apply answers, a suspended schedule's reason). */
export function conflictLines(conflicts: RequestConflicts): string[] {
  return [
    ...[...conflicts.features].map(([feature, conflict]) => `${feature}: ${conflict}`),
    ...conflicts.changes.map((c) => `change ${c.changeId}${c.feature ? ` (${c.feature})` : ''}: ${c.conflict}`),
  ];
}
