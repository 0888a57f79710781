import type { Flag } from './types.js';

/** How long a flag of each type lives before it counts as potentially stale (docs/api-decisions.md "Overview"). */
export const LIFETIME_DAYS: Record<Flag['type'], number | null> = {
  release: 40, experiment: 40, operational: 7, 'kill-switch': null, permission: null, sunset: 90,
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

/** How fresh an active flag is: marked stale, past its type's lifetime (potentially stale), or neither. */
export type Staleness = 'stale' | 'potentially-stale' | 'fresh';

/**
 * The staleness of `flag` at `now` (archival aside), by the rule project health counts with; `staleFrom`
 * is the flag's {@link potentiallyStaleFrom}, for a caller that keeps it.
 *
 * @example stalenessAt(flag, Date.now()) // 'potentially-stale' for a release flag created 41 days ago
 */
export function stalenessAt(flag: Flag, now: number, staleFrom: number = potentiallyStaleFrom(flag)): Staleness {
  if (flag.stale) return 'stale';
  return staleFrom < now ? 'potentially-stale' : 'fresh';
}

/** What project health needs of a project's active flags. */
export interface HealthFacts {
  total: number;
  stale: number;
  /** {@link potentiallyStaleFrom} of every active flag, ascending. */
  staleFrom: Float64Array;
}

/** Health at `now`: potentially stale are the flags whose lifetime ended before `now`. */
export function healthAt(facts: HealthFacts, now: number): number {
  if (facts.total === 0) return 100;
  // The moments are sorted: the potentially stale flags are those before the first moment at or after `now`.
  const { staleFrom } = facts;
  let low = 0;
  let high = staleFrom.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (staleFrom[mid]! < now) low = mid + 1;
    else high = mid;
  }
  const potentiallyStale = low;
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
  staleFrom.sort();
  return { total: active.length, stale, staleFrom };
}

/**
 * docs/api-decisions.md "Overview": `round(100 - 100*stale/total - 100*potentiallyStale/total)` over active flags,
 * 100 when there are none; potentially stale = not stale and older than its type's lifetime.
 */
export const projectHealth = (flags: Iterable<Flag>, now: number): number => healthAt(healthFacts(flags), now);
