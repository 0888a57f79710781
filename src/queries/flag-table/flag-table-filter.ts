/** The filters of the console's flag table, as one predicate over the positions of a search index. */
import { stalenessAt } from '../../domain/project-health.js';
import type { FlagTableQuery } from '../../schemas/flag-table.schema.js';
import type { TableColumns } from './flag-table-columns.js';
import type { ProjectIndex } from '../search/search-index-types.js';

/**
 * One predicate, by position in `index.base`, for the table's filters but the free text (matched on the
 * index): archived or active, any of the types, any of the staleness marks at `now` (`stalenessAt`), every tag, every `<environment>:on|off`. Columns are read only for the filters asked.
 *
 * @example const keep = flagTableFilter(query, index, columns, Date.now()); keep(0)
 */
export function flagTableFilter(query: FlagTableQuery, index: ProjectIndex, columns: TableColumns, now: number): (at: number) => boolean {
  const { archived, type, stale, tag, enabled } = query;
  const base = index.base;
  const types = new Set<string>(type);
  const marks = new Set<string>(stale);
  const staleFrom = marks.size > 0 ? columns.staleFrom(index) : undefined;
  const switches = enabled.map(({ environment, on }) => ({ column: columns.enabled(index, environment), on: on ? 1 : 0 }));
  return (at) => {
    const entry = base[at]!;
    if (entry.archived !== archived) return false;
    if (types.size > 0 && !types.has(entry.type)) return false;
    for (const { column, on } of switches) if (column[at] !== on) return false;
    if (staleFrom !== undefined && !marks.has(stalenessAt(entry.flag, now, staleFrom[at]))) return false;
    if (tag.length > 0) {
      const tags = entry.flag.tags;
      if (!tags || !tag.every((w) => tags.some((t) => t.type === w.type && t.value === w.value))) return false;
    }
    return true;
  };
}
