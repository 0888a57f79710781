/**
 * The orders of a flag search: Unleash's order is the sort field, then `createdAt` ascending, then `name`
 * ascending; the default sort is `createdAt`, ascending.
 */
import type { Flag } from '../../domain/types.js';

/** A flag found by a search, with its project. */
export interface Hit {
  flag: Flag;
  project: string;
}

type Key = string | number | boolean | null;

/** How one sort field reads a flag: its key, and whether nulls go last whatever the order (Unleash's `NULLS LAST`). */
export interface SortField {
  key(flag: Flag, project: string): Key;
  nullsLast: boolean;
}

const compareKeys = (a: Key, b: Key): number => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/** `createdAt` ascending, then `name` ascending: Unleash's tie-break after any sort field. */
const compareBase = (a: Flag, b: Flag): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * The comparison of hits by `field` (`createdAt` when undefined) in the asked direction, then the tie-break.
 *
 * @example hits.sort(comparator(sortField('name', lastSeenAt), true))
 */
export function comparator(field: SortField | undefined, descending: boolean): (a: Hit, b: Hit) => number {
  return (a, b) => {
    if (field) {
      const ka = field.key(a.flag, a.project);
      const kb = field.key(b.flag, b.project);
      if (ka !== kb) {
        if (ka === null || kb === null) return field.nullsLast ? compareKeys(ka, kb) : (descending ? -1 : 1) * compareKeys(ka, kb);
        return (descending ? -1 : 1) * compareKeys(ka, kb);
      }
      return compareBase(a.flag, b.flag);
    }
    // createdAt: its own direction, then name ascending.
    if (a.flag.createdAt !== b.flag.createdAt) return (descending ? -1 : 1) * (a.flag.createdAt < b.flag.createdAt ? -1 : 1);
    return a.flag.name < b.flag.name ? -1 : a.flag.name > b.flag.name ? 1 : 0;
  };
}

/**
 * The field `sortBy` names (`name`, `type`, `stale`, `project`, `lastSeenAt`, `environment:<name>`);
 * undefined for `createdAt`. `lastSeenAt` reads when a flag was last seen through `lastSeenAt`.
 */
export function sortField(sortBy: string, lastSeenAt: (project: string, flag: string) => string | null): SortField | undefined {
  switch (sortBy) {
    case 'createdAt': return undefined;
    case 'name': return { key: (f) => f.name, nullsLast: false };
    case 'type': return { key: (f) => f.type, nullsLast: false };
    case 'stale': return { key: (f) => f.stale, nullsLast: false };
    case 'project': return { key: (_f, p) => p, nullsLast: false };
    case 'lastSeenAt': return { key: (f, p) => lastSeenAt(p, f.name), nullsLast: true };
    default: {
      const env = sortBy.slice('environment:'.length);
      return { key: (f) => f.environments[env]?.enabled ?? null, nullsLast: true };
    }
  }
}

/**
 * The key a project's order by `sortBy` is kept under in `SearchIndexes`; a `lastSeenAt` order also keys on
 * the project's usage version, as sightings change without a state change.
 *
 * @example indexes.order(id, state, orderKey('name', false, usage), comparator(sortField('name', seen), false))
 */
export const orderKey = (sortBy: string, descending: boolean, usageVersion: number): string =>
  `${sortBy}\u0000${descending ? 'desc' : 'asc'}${sortBy === 'lastSeenAt' ? `\u0000${usageVersion}` : ''}`;
