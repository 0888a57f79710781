import type { ProjectState } from '../domain/project-state.js';

/**
 * `derive` of a project state, computed once per state version (the version moves on every published change):
 * for reads that would otherwise scan every flag of the project on each request.
 *
 * @example const count = perStateVersion((state) => state.flags.size); count(actor.state)
 */
export function perStateVersion<T>(derive: (state: ProjectState) => T): (state: ProjectState) => T {
  const cache = new WeakMap<ProjectState, { version: number; value: T }>();
  return (state) => {
    const cached = cache.get(state);
    if (cached && cached.version === state.version) return cached.value;
    const value = derive(state);
    cache.set(state, { version: state.version, value });
    return value;
  };
}
