/**
 * Whether switching a flag on in an environment would serve it to no one: the console then offers, before
 * switching, to add a strategy (the project's default strategy for the environment, else a 100% rollout) or to
 * enable the flag's disabled strategies, in the one command `flag.enable` decides (`rolloutWithoutDefault`,
 * `activateDisabled`).
 */
import type { ProjectState } from '../domain/project-state.js';

/** What the offer says: the environment, the disabled strategies there, the project's default strategy's name (or null). */
export interface SwitchOffer {
  environment: string;
  disabledStrategies: number;
  defaultStrategy: string | null;
}

/** The offer for switching `flag` on in `environment`, or undefined when an enabled strategy serves it (or there is no such entry). */
export function switchOffer(state: ProjectState, flag: string, environment: string): SwitchOffer | undefined {
  const entry = state.flags.get(flag)?.environments[environment];
  if (!entry || entry.strategies.some((s) => !s.disabled)) return undefined;
  const fallback = Object.hasOwn(state.meta.defaultStrategies, environment) ? state.meta.defaultStrategies[environment] : undefined;
  return { environment, disabledStrategies: entry.strategies.length, defaultStrategy: fallback ? fallback.title || fallback.name : null };
}
