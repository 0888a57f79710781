/** Reads of flag dependencies from a project's committed state (docs/api-decisions.md "Dependencies"). */
import type { ProjectState } from '../domain/project-state.js';
import { flagById } from './flags.query.js';
import { perStateVersion } from './state-memo.js';
import { ok, type Result } from '../domain/result.js';

/**
 * Each project state's children by parent name, built with one scan per state version: `GET` of one flag
 * answers its `children`, and a scan of a 100k-flag project on every read would take milliseconds.
 */
const childrenByParent = perStateVersion((state) => {
  const byParent = new Map<string, string[]>();
  for (const flag of state.flags.values()) {
    if (flag.archived || !flag.dependencies) continue;
    for (const { feature } of flag.dependencies) {
      const children = byParent.get(feature);
      if (children === undefined) byParent.set(feature, [flag.name]);
      else if (children.at(-1) !== flag.name) children.push(flag.name);
    }
  }
  return byParent;
});

/** The active flags of the project that depend on `name`, in creation order. */
export function flagChildren(state: ProjectState, name: string): string[] {
  return [...(childrenByParent(state).get(name) ?? [])];
}

/**
 * The flags `child` may depend on (Unleash's `listParentOptions`): the project's other active flags that have
 * no parent themselves; none when `child` is itself a parent (one level only). 404 for an unknown child.
 */
export function possibleParents(state: ProjectState, child: string): Result<string[]> {
  const found = flagById(state, child);
  if (!found.ok) return found;
  if (flagChildren(state, child).length > 0) return ok([]);
  const options: string[] = [];
  for (const flag of state.flags.values()) {
    if (flag.name !== child && !flag.archived && (flag.dependencies ?? []).length === 0) options.push(flag.name);
  }
  return ok(options);
}

/**
 * The variant names a child may require of `parent` (Unleash's `listParentVariantOptions`): its flag variants
 * and the variants of its strategies in every environment, each once, sorted. 404 for an unknown flag.
 */
export function parentVariants(state: ProjectState, parent: string): Result<string[]> {
  const found = flagById(state, parent);
  if (!found.ok) return found;
  const names = new Set(found.value.variants.map((v) => v.name));
  for (const entry of Object.values(found.value.environments)) {
    for (const strategy of entry.strategies) for (const variant of strategy.variants) names.add(variant.name);
  }
  return ok([...names].sort());
}

/** Whether any flag of the project has a parent (Unleash's `checkDependenciesExist`). */
export function dependenciesExist(state: ProjectState): boolean {
  for (const flag of state.flags.values()) if ((flag.dependencies ?? []).length > 0) return true;
  return false;
}
