/**
 * The bridge from storage to the engine: a stored flag in one environment,
 * as the client API would serve it to an SDK.
 */
import type { Flag } from '../types.js';
import type { FlagDefinition } from './definition.types.js';

/**
 * The definition of `flag` in `environment`. Strategies stay in `sortOrder`
 * (the order the client API serves and the SDK walks); disabled ones are
 * kept because the playground lists them, and `compileFlag` leaves them out
 * of evaluation. An environment the flag has no entry for is off.
 *
 * @example
 * compileFlag(flagDefinition(flag, 'production'), (id) => segments.get(id));
 */
export function flagDefinition(flag: Flag, environment: string): FlagDefinition {
  const entry = Object.hasOwn(flag.environments, environment) ? flag.environments[environment] : undefined;
  return {
    name: flag.name,
    enabled: entry?.enabled ?? false,
    impressionData: flag.impressionData,
    strategies: entry ? [...entry.strategies].sort((a, b) => a.sortOrder - b.sortOrder) : [],
    variants: flag.variants,
    dependencies: flag.dependencies ?? [],
  };
}
