/** Reads of a project's flags from its committed state. */
import { fail } from '../domain/errors.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Flag, Strategy } from '../domain/types.js';
import { failed, ok, type Result } from '../domain/result.js';
import { perStateVersion } from './state-memo.js';

/** A flag of the project (archived ones too), with its version as the answer's `ETag`; 404 when unknown. */
export function flagById(state: ProjectState, name: string): Result<Flag> {
  const flag = state.flags.get(name);
  if (!flag) return failed(fail('NotFoundError', `Could not find feature flag "${name}" in project "${state.meta.id}"`));
  return ok(flag, flag.version);
}

/** A flag in one environment of the project; 404 when the flag is unknown or the environment not connected. */
export function flagInEnvironment(state: ProjectState, name: string, environment: string): Result<{ flag: Flag; strategies: Flag['environments'][string]['strategies'] }> {
  const found = flagById(state, name);
  if (!found.ok) return found;
  if (!state.meta.environments.includes(environment)) {
    return failed(fail('NotFoundError', `Environment "${environment}" is not enabled for project "${state.meta.id}"`));
  }
  const entry = Object.hasOwn(found.value.environments, environment) ? found.value.environments[environment] : undefined;
  return ok({ flag: found.value, strategies: entry?.strategies ?? [] }, found.value.version);
}

/** One strategy of a flag in one environment; 404 when the flag, the environment or the strategy is unknown there. */
export function strategyById(state: ProjectState, name: string, environment: string, strategyId: string): Result<Strategy> {
  const found = flagInEnvironment(state, name, environment);
  if (!found.ok) return found;
  const strategy = found.value.strategies.find((s) => s.id === strategyId);
  if (!strategy) return failed(fail('NotFoundError', `No strategy "${strategyId}" on flag "${name}" in environment "${environment}"`));
  return ok(strategy, found.value.flag.version);
}

/** How many of the project's flags are not archived; counted once per state version (a scan of every flag). */
export const activeFlagCount = perStateVersion((state) => {
  let count = 0;
  for (const flag of state.flags.values()) if (!flag.archived) count += 1;
  return count;
});

/** The archived flags of the project, by name. */
export function archivedFlags(state: ProjectState): Result<Flag[]> {
  const archived: Flag[] = [];
  for (const flag of state.flags.values()) if (flag.archived) archived.push(flag);
  return ok(archived.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
}

/** A flag's entry in one environment as Unleash's `getFeatureEnvironment` answers it: `{name, environment, enabled, strategies}`. */
export function flagEnvironment(state: ProjectState, name: string, environment: string): Result<{ name: string; environment: string; enabled: boolean; strategies: Strategy[] }> {
  const found = flagInEnvironment(state, name, environment);
  if (!found.ok) return found;
  const entry = Object.hasOwn(found.value.flag.environments, environment) ? found.value.flag.environments[environment] : undefined;
  return ok({ name, environment, enabled: entry?.enabled ?? false, strategies: found.value.strategies }, found.value.flag.version);
}
