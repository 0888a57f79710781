/** The filters of the console's flag table, as one predicate over the search index's entries. */
import { stalenessAt } from '../domain/project-health.js';
import type { FlagTableQuery } from '../schemas/flag-table.schema.js';
import type { Entry } from './search-index.js';

/**
 * One predicate for the table's filters but the free text (matched on the index): archived or active, any of
 * the types, any of the staleness marks at `now`, every tag, every `<environment>:on|off`. `staleFrom` gives
 * an entry's potentially-stale moment; it is asked only when the query filters on staleness.
 *
 * @example const keep = flagTableFilter(query, Date.now(), (entry) => potentiallyStaleFrom(entry.flag));
 */
export function flagTableFilter(query: FlagTableQuery, now: number, staleFrom: (entry: Entry) => number): (entry: Entry) => boolean {
  const { archived, type, stale, tag, enabled } = query;
  const types = new Set<string>(type);
  const marks = new Set<string>(stale);
  return (entry) => {
    if (entry.archived !== archived) return false;
    if (types.size > 0 && !types.has(entry.type)) return false;
    const flag = entry.flag;
    if (marks.size > 0 && !marks.has(stalenessAt(flag, now, staleFrom(entry)))) return false;
    if (tag.length > 0) {
      const tags = flag.tags ?? [];
      if (!tag.every((w) => tags.some((t) => t.type === w.type && t.value === w.value))) return false;
    }
    for (const { environment, on } of enabled) if ((flag.environments[environment]?.enabled ?? false) !== on) return false;
    return true;
  };
}
