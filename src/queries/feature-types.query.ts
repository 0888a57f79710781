/** The flag types (Unleash's `GET /api/admin/feature-types`): each with its name, purpose and expected lifetime. */
import { LIFETIME_DAYS } from '../domain/project-health.js';
import { ok, type Result } from '../domain/result.js';
import type { FlagType } from '../domain/types.js';
import { FLAG_TYPES } from '../schemas/feature.schema.js';

/** A flag type as listed. `lifetimeDays`: days before a flag of it counts as potentially stale; null: never. */
export interface FeatureTypeInfo {
  id: FlagType;
  name: string;
  description: string;
  lifetimeDays: number | null;
}

const ABOUT: Record<FlagType, [name: string, description: string]> = {
  release: ['Release', 'Ships new or unfinished work behind a switch, rolled out step by step.'],
  experiment: ['Experiment', 'Compares versions of a feature (A/B or multivariate tests).'],
  operational: ['Operational', 'Moves between technical implementations with little risk.'],
  'kill-switch': ['Kill switch', 'Turns a part of the system off quickly when it misbehaves.'],
  permission: ['Permission', 'Grants a feature to some users, by role or entitlement.'],
  sunset: ['Sunset', 'Winds a feature down on the way to removing it from the code.'],
};

/**
 * Every flag type, in the order Unleash lists them (`sunset`, Unleash 8.0's, last), with the lifetimes project
 * health counts with (docs/api-decisions.md "Overview"); flagpole's lifetimes are fixed, not configurable.
 *
 * @example featureTypes() // ok({ version: 1, types: [{ id: 'release', name: 'Release', lifetimeDays: 40, ... }, ...] })
 */
export function featureTypes(): Result<{ version: 1; types: FeatureTypeInfo[] }> {
  return ok({
    version: 1,
    types: FLAG_TYPES.map((id) => ({ id, name: ABOUT[id][0], description: ABOUT[id][1], lifetimeDays: LIFETIME_DAYS[id] })),
  });
}
