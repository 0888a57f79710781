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
import { potentiallyStaleFrom } from '../project-health.js';
import type { FlagRef, ServiceEvent } from '../service-events.js';
import type { ServiceState } from '../service-state.js';

/**
 * `flags.potential-staleness.check`: the flags to mark and unmark now; nothing when none changed. The first check of a
 * service marks the flags already past their lifetime unannounced (no flood of events after an upgrade or a restore).
 *
 * @example decidePotentialStaleness(state, { at: new Date().toISOString(), ... }, lookups) // accept([{ type: 'flags.potential-staleness-changed', on: [...], off: [], announced: true }], null)
 */
export function decidePotentialStaleness(draft: ServiceState, context: CommandContext, lookups: ServiceLookups): Decision<ServiceEvent, null> {
  const now = Date.parse(context.at);
  const marks = draft.potentiallyStale ?? dict<string[]>();
  const { served, unreadable } = lookups.flagsByProject();
  const on: FlagRef[] = [];
  const off: FlagRef[] = [];
  const seen = new Set<string>();
  for (const [project, flags] of served) {
    seen.add(project);
    const marked = new Set(own(marks, project) ?? []);
    const present = new Set<string>();
    for (const flag of flags) {
      present.add(flag.name);
      if (flag.stale || flag.archived) continue;
      const past = potentiallyStaleFrom(flag) < now;
      if (past && !marked.has(flag.name)) on.push({ project, name: flag.name });
      else if (!past && marked.has(flag.name)) off.push({ project, name: flag.name });
    }
    for (const name of marked) if (!present.has(name)) off.push({ project, name });
  }
  // A project that could not be recovered keeps its marks; a deleted one's go.
  for (const project of Object.keys(marks)) {
    if (!seen.has(project) && !unreadable.includes(project)) for (const name of own(marks, project) ?? []) off.push({ project, name });
  }
  const announced = draft.potentiallyStale !== undefined;
  if (announced && on.length === 0 && off.length === 0) return accept([], null);
  return accept([{ type: 'flags.potential-staleness-changed', on, off, announced }], null);
}

