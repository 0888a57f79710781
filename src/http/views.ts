import type { Environment } from '../domain/service-state.js';
import type { Flag, Strategy, Variant } from '../domain/types.js';

/** The flag record of seed 2.3 plus `impressionData`: the answer of create, update, patch and clone. */
export const flagRecord = (flag: Flag, project: string) => ({
  name: flag.name,
  description: flag.description,
  type: flag.type,
  project,
  stale: flag.stale,
  impressionData: flag.impressionData,
  createdAt: flag.createdAt,
  lastSeenAt: flag.lastSeenAt,
  variants: flag.variants.length > 0 ? flag.variants : null,
});

/** The project's environments in the service's environment order. */
export function orderedEnvironments(all: Environment[], projectEnvironments: string[]): Environment[] {
  const connected = new Set(projectEnvironments);
  return all.filter((e) => connected.has(e.name));
}

const byOrder = (a: Strategy, b: Strategy) => a.sortOrder - b.sortOrder;

/** The single-flag GET: the record plus `archived` and every environment with its strategies. */
export const flagDetail = (flag: Flag, project: string, environments: Environment[]) => ({
  ...flagRecord(flag, project),
  archived: flag.archived,
  archivedAt: flag.archivedAt,
  environments: environments.map((env) => {
    const entry = flag.environments[env.name];
    return {
      name: env.name,
      enabled: entry?.enabled ?? false,
      type: env.type,
      sortOrder: env.sortOrder,
      strategies: entry ? [...entry.strategies].sort(byOrder) : [],
    };
  }),
});

/** The answer of the variants endpoints (seed 4.14: a string version). */
export const variantsResponse = (variants: Variant[]) => ({ version: '1', variants });

const LIFETIME_DAYS: Record<Flag['type'], number | null> = {
  release: 40, experiment: 40, operational: 7, 'kill-switch': null, permission: null,
};
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The moment a flag becomes potentially stale (older than its type's lifetime), in ms since the epoch; NaN
 * when it never does (a stale flag counts as stale instead; kill-switch and permission flags have no
 * lifetime).
 */
export function potentiallyStaleFrom(flag: Flag): number {
  const lifetime = LIFETIME_DAYS[flag.type];
  if (flag.stale || lifetime === null) return Number.NaN;
  return Date.parse(flag.createdAt) + lifetime * DAY_MS;
}

/** What project health needs of a project's active flags. */
export interface HealthFacts {
  total: number;
  stale: number;
  /** {@link potentiallyStaleFrom} of every active flag. */
  staleFrom: Float64Array;
}

/** Health at `now`: potentially stale are the flags whose lifetime ended before `now`. */
export function healthAt(facts: HealthFacts, now: number): number {
  if (facts.total === 0) return 100;
  let potentiallyStale = 0;
  for (const from of facts.staleFrom) if (from < now) potentiallyStale += 1;
  return Math.round(100 - (100 * facts.stale) / facts.total - (100 * potentiallyStale) / facts.total);
}

/** The health facts of `flags`, with `staleFromOf` to look up (or cache) each flag's moment. */
export function healthFacts(flags: Iterable<Flag>, staleFromOf: (flag: Flag) => number = potentiallyStaleFrom): HealthFacts {
  const active: Flag[] = [];
  let stale = 0;
  for (const flag of flags) {
    if (flag.archived) continue;
    active.push(flag);
    if (flag.stale) stale += 1;
  }
  const staleFrom = new Float64Array(active.length);
  active.forEach((flag, i) => { staleFrom[i] = staleFromOf(flag); });
  return { total: active.length, stale, staleFrom };
}

/**
 * API-DECISIONS "Overview": `round(100 - 100*stale/total - 100*potentiallyStale/total)` over active flags,
 * 100 when there are none; potentially stale = not stale and older than its type's lifetime.
 */
export const projectHealth = (flags: Iterable<Flag>, now: number): number => healthAt(healthFacts(flags), now);
