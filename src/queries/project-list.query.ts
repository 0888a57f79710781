/** The console's project list (`/projects`): each project with the figures a person scans the list for. */
import type { Registry } from '../actors/registry.js';
import { activeFlagCount } from './flags.query.js';
import type { HealthQuery } from './health.query.js';
import { perStateVersion } from './state-memo.js';

/** One row of the project list. */
export interface ProjectSummary {
  id: string;
  name: string;
  description: string | null;
  /** Flags not archived. */
  flagCount: number;
  /** Of those, the ones marked stale. */
  staleCount: number;
  /** Project health, 0 to 100 (docs/api-decisions.md "Overview"). */
  health: number;
  memberCount: number;
  createdAt: string;
}

/** Flags marked stale and not archived; counted once per state version. */
const staleFlagCount = perStateVersion((state) => {
  let count = 0;
  for (const flag of state.flags.values()) if (flag.stale && !flag.archived) count += 1;
  return count;
});

/**
 * Every project served, by name, with its counts (each derived once per project state version).
 *
 * @example projectSummaries(registry, deps.health)[0] // { id: 'default', name: 'Default', flagCount: 3, ... }
 */
export function projectSummaries(registry: Registry, health: HealthQuery, now = Date.now()): ProjectSummary[] {
  const rows = registry.projectIds().map((id): ProjectSummary => {
    const state = registry.project(id)!.state;
    const { meta } = state;
    return {
      id, name: meta.name, description: meta.description ?? null, flagCount: activeFlagCount(state), staleCount: staleFlagCount(state),
      health: health.of(state, now), memberCount: Object.keys(meta.members).length, createdAt: meta.createdAt,
    };
  });
  return rows.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id));
}

/** The name of a project, or undefined when none is served under `id`. */
export const projectName = (registry: Registry, id: string): string | undefined => registry.project(id)?.state.meta.name;
