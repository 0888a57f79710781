/**
 * Where segments are used, for the console's segment list: the same uses the service decides deletes by
 * (`segmentUsesIn`: strategies of flags, archived ones too, and default strategies), gathered for a page of
 * segments at once.
 */
import type { Registry } from '../actors/registry.js';
import type { ProjectState } from '../domain/project-state.js';
import { segmentUsesIn, type SegmentUse } from '../domain/segment.js';
import { perStateVersion } from './state-memo.js';

/** Where one segment is used. */
export interface SegmentUsageSummary {
  /** Each strategy that names it, as `segmentUsesIn` lists them. */
  uses: SegmentUse[];
  /** The distinct flags using it (project/flag). */
  flagCount: number;
  /** The projects using it, by id. */
  projects: string[];
}

/** Per project state: the uses of every segment its strategies name (one walk to find them, then each's uses). */
const usesByProject = perStateVersion((state: ProjectState): ReadonlyMap<number, SegmentUse[]> => {
  const ids = new Set<number>();
  for (const flag of state.flags.values()) for (const entry of Object.values(flag.environments)) for (const s of entry.strategies) for (const id of s.segments) ids.add(id);
  for (const strategy of Object.values(state.meta.defaultStrategies)) for (const id of strategy.segments ?? []) ids.add(id);
  return new Map([...ids].map((id) => [id, segmentUsesIn(state, id)]));
});

/**
 * Where each of `ids` is used, in the committed project states (a project whose state could not be recovered is
 * not read: the delete names it).
 *
 * @example segmentUsage(registry, [1, 2]).get(1)?.flagCount // 3
 */
export function segmentUsage(registry: Registry, ids: readonly number[]): Map<number, SegmentUsageSummary> {
  const found = new Map<number, SegmentUse[]>(ids.map((id) => [id, []]));
  for (const projectId of registry.projectIds()) {
    const actor = registry.project(projectId);
    if (!actor) continue;
    const byId = usesByProject(actor.state);
    for (const id of ids) found.get(id)!.push(...(byId.get(id) ?? []));
  }
  return new Map([...found].map(([id, uses]) => [id, {
    uses,
    flagCount: new Set(uses.filter((u) => u.feature !== null).map((u) => `${u.project}/${u.feature}`)).size,
    projects: [...new Set(uses.map((u) => u.project))].sort(),
  }]));
}
