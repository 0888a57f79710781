/**
 * Potentially stale flags, as Unleash marks them (its `updatePotentiallyStaleFeatures`, run every minute): a flag that
 * is neither stale nor archived is potentially stale once older than its type's lifetime (`LIFETIME_DAYS`); the check
 * marks it then, once, which addons receive as `feature-potentially-stale-on`, and unmarks it when that stops being so
 * (its type changed, it was deleted). A stale or archived flag keeps its mark as it is, as in Unleash. Decided in the
 * service mailbox, which holds the marks, from the projects' committed flags at the moment of the check.
 */
import type { CommandContext, ServiceLookups } from '../context.js';
import { dict, own } from '../dict.js';
import { accept, type Decision } from '../errors.js';
import { LIFETIME_DAYS } from '../project-health.js';
import type { FlagRef, ServiceEvent } from '../service-events.js';
import type { ServiceState } from '../service-state.js';
import type { Flag } from '../types.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** `toISOString()`'s form (`2025-01-01T00:00:00.000Z`), which every stored `createdAt` has: such texts compare as the moments they name. */
const isoForm = (text: string) => text.length === 24 && text.charCodeAt(23) === 90 && text.charCodeAt(10) === 84;

/**
 * Whether `flag` is older than its type's lifetime at `now` (Unleash: `now > createdAt + lifetime`), by comparing its
 * `createdAt` with the cutoff of its type as text: no date is parsed per flag, so a check of 100,000 flags stays short.
 */
function pastLifetime(flag: Flag, now: number, cutoffs: Map<string, string | null>): boolean {
  let cutoff = cutoffs.get(flag.type);
  if (cutoff === undefined) {
    const days = LIFETIME_DAYS[flag.type];
    cutoff = days === null || days === undefined ? null : new Date(now - days * DAY_MS).toISOString();
    cutoffs.set(flag.type, cutoff);
  }
  if (cutoff === null) return false;
  return isoForm(flag.createdAt) ? flag.createdAt < cutoff : Date.parse(flag.createdAt) < Date.parse(cutoff);
}

/** Each project's marks as a set, made once per list (the lists are replaced, never changed, so the set stays true). */
const markSets = new WeakMap<readonly string[], ReadonlySet<string>>();
const setOf = (names: readonly string[]): ReadonlySet<string> => markSets.get(names) ?? markSets.set(names, new Set(names)).get(names)!;
const NONE: readonly string[] = [];

/**
 * `flags.potential-staleness.check`: the flags to mark and unmark now; nothing when none changed. The first check of a
 * service marks the flags already past their lifetime unannounced (no flood of events after an upgrade).
 *
 * @example decidePotentialStaleness(state, { at: new Date().toISOString(), ... }, lookups) // accept([{ type: 'flags.potential-staleness-changed', on: [...], off: [], announced: true }], null)
 */
export function decidePotentialStaleness(draft: ServiceState, context: CommandContext, lookups: ServiceLookups): Decision<ServiceEvent, null> {
  const now = Date.parse(context.at);
  const cutoffs = new Map<string, string | null>();
  const marks = draft.potentiallyStale ?? dict<readonly string[]>();
  const { served, unreadable } = lookups.flagsByProject();
  const on: FlagRef[] = [];
  const off: FlagRef[] = [];
  const seen = new Set<string>();
  for (const [project, flags] of served) {
    seen.add(project);
    const names = own(marks, project) ?? NONE;
    const marked = setOf(names);
    for (const flag of flags.values()) {
      if (flag.stale || flag.archived) continue;
      const past = pastLifetime(flag, now, cutoffs);
      if (past !== marked.has(flag.name)) (past ? on : off).push({ project, name: flag.name });
    }
    for (const name of names) if (!flags.has(name)) off.push({ project, name });
  }
  // A project that could not be recovered keeps its marks; a deleted one's go.
  for (const project of Object.keys(marks)) {
    if (!seen.has(project) && !unreadable.includes(project)) for (const name of own(marks, project) ?? NONE) off.push({ project, name });
  }
  const announced = draft.potentiallyStale !== undefined;
  if (announced && on.length === 0 && off.length === 0) return accept([], null);
  return accept([{ type: 'flags.potential-staleness-changed', on, off, announced }], null);
}
