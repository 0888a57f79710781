/**
 * Where the service's definitions are used, for the console's definition pages (the API answers only a context
 * field's strategies): the strategies of flags that name a strategy definition, the flags carrying tags of a
 * type, the segments constraining on a context field. Each project's part is derived once per state version,
 * so a list page with usage counts costs one pass over the projects, not one over every flag.
 */
import type { Registry } from '../actors/registry.js';
import type { ProjectState } from '../domain/project-state.js';
import type { ContextFieldStrategy } from './definitions.query.js';
import { perStateVersion } from './state-memo.js';

/** A flag, named with its project. */
export interface FlagRef {
  projectId: string;
  featureName: string;
  archived: boolean;
}

/** A segment that constrains on a context field. */
export interface SegmentRef {
  id: number;
  name: string;
  project: string | null;
}

/** Per project: strategy definition name → the strategies (every flag, archived ones too) that name it. */
const strategiesByDefinition = perStateVersion((state: ProjectState) => {
  const uses = new Map<string, ContextFieldStrategy[]>();
  for (const flag of state.flags.values()) {
    for (const [environment, entry] of Object.entries(flag.environments)) {
      for (const s of entry.strategies) {
        const list = uses.get(s.name) ?? [];
        list.push({ id: s.id, projectId: state.meta.id, featureName: flag.name, strategyName: s.name, environment });
        uses.set(s.name, list);
      }
    }
  }
  return uses;
});

/** Per project: tag type → the flags carrying a tag of it. */
const flagsByTagType = perStateVersion((state: ProjectState) => {
  const uses = new Map<string, FlagRef[]>();
  for (const flag of state.flags.values()) {
    const types = new Set((flag.tags ?? []).map((t) => t.type));
    for (const type of types) {
      const list = uses.get(type) ?? [];
      list.push({ projectId: state.meta.id, featureName: flag.name, archived: flag.archived === true });
      uses.set(type, list);
    }
  }
  return uses;
});

function states(registry: Registry): ProjectState[] {
  return registry.projectIds().sort().map((id) => registry.project(id)!.state);
}

/** The strategies of every flag (archived ones too) that use strategy definition `name`, by project. */
export function strategiesUsingDefinition(registry: Registry, name: string): ContextFieldStrategy[] {
  return states(registry).flatMap((state) => strategiesByDefinition(state).get(name) ?? []);
}

/** How many strategies of flags use each strategy definition (names no strategy uses are absent). */
export function definitionUseCounts(registry: Registry): Map<string, number> {
  const counts = new Map<string, number>();
  for (const state of states(registry)) for (const [name, uses] of strategiesByDefinition(state)) counts.set(name, (counts.get(name) ?? 0) + uses.length);
  return counts;
}

/** The flags of every project (archived ones too) carrying a tag of type `name`. */
export function flagsWithTagType(registry: Registry, name: string): FlagRef[] {
  return states(registry).flatMap((state) => flagsByTagType(state).get(name) ?? []);
}

/** How many flags carry tags of each type (types no flag carries are absent). */
export function tagTypeUseCounts(registry: Registry): Map<string, number> {
  const counts = new Map<string, number>();
  for (const state of states(registry)) for (const [type, flags] of flagsByTagType(state)) counts.set(type, (counts.get(type) ?? 0) + flags.length);
  return counts;
}

/** The segments (global and project ones) with a constraint on context field `name`, by id. */
export function segmentsUsingContextField(registry: Registry, name: string): SegmentRef[] {
  return Object.values(registry.service.state.segments)
    .filter((s) => s.constraints.some((c) => c.contextName === name))
    .sort((a, b) => a.id - b.id)
    .map((s) => ({ id: s.id, name: s.name, project: s.project }));
}
