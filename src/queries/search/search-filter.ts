/** The filters of a flag search (Unleash 6.10's operators), as one predicate over the indexed flags. */
import type { FeatureSearchQuery, IncludeOperator, IsOperator } from '../../schemas/search.schema.js';
import { creatorUserId } from '../../domain/flag-creator.js';
import { currentStage } from '../../domain/flag-stages.js';
import type { Entry } from './search-index-types.js';

/** Whether `value` passes an `IS`-style filter of `values`. */
export const isMatch = (operator: IsOperator, values: readonly string[], value: string): boolean =>
  (operator === 'IS' || operator === 'IS_ANY_OF') === values.includes(value);

function includeMatch(operator: IncludeOperator, present: number, wanted: number): boolean {
  switch (operator) {
    case 'INCLUDE': case 'INCLUDE_ANY_OF': return present > 0;
    case 'DO_NOT_INCLUDE': case 'EXCLUDE_IF_ANY_OF': return present === 0;
    case 'INCLUDE_ALL_OF': return present === wanted;
    case 'EXCLUDE_ALL': return present !== wanted;
  }
}

/** Unleash's `state` filter; flagpole has no "potentially stale" flags (no flag is one). */
function stateMatch(operator: IsOperator, values: readonly string[], stale: boolean): boolean {
  const wanted = new Set(values);
  const inSet = (stale && wanted.has('stale')) || (!stale && wanted.has('active'));
  return (operator === 'IS' || operator === 'IS_ANY_OF') ? inSet : !inSet;
}

/**
 * One predicate for every filter of the query but the project filter (applied to the projects) and the
 * free text (matched on the index). `segmentNames`: the service's segments, by id.
 *
 * @example const matches = searchFilter({ archived: false, type: { operator: 'IS', values: ['release'] } }, names);
 */
export function searchFilter(query: FeatureSearchQuery, segmentNames: Map<number, string>): (entry: Entry) => boolean {
  const archived = query.archived ?? false;
  const { type, state, tag, segment, createdAt, createdBy, status, lifecycle } = query;
  return (entry) => {
    if (entry.archived !== archived) return false;
    if (type && !isMatch(type.operator, type.values, entry.type)) return false;
    const flag = entry.flag;
    if (state && !stateMatch(state.operator, state.values, flag.stale)) return false;
    if (createdAt && (createdAt.operator === 'IS_BEFORE' ? !(flag.createdAt < createdAt.day) : flag.createdAt < createdAt.day)) return false;
    if (tag) {
      const tags = flag.tags ?? [];
      const present = tag.values.filter((w) => tags.some((t) => t.type === w.type && t.value === w.value)).length;
      if (!includeMatch(tag.operator, present, tag.values.length)) return false;
    }
    if (segment) {
      const names = new Set<string>();
      for (const env of Object.values(flag.environments)) for (const s of env.strategies) for (const sid of s.segments ?? []) names.add(segmentNames.get(sid) ?? '');
      const present = segment.values.filter((name) => names.has(name)).length;
      if (!includeMatch(segment.operator, present, segment.values.length)) return false;
    }
    if (createdBy && !isMatch(createdBy.operator, createdBy.values, String(creatorUserId(flag) ?? ''))) return false;
    if (lifecycle && !isMatch(lifecycle.operator, lifecycle.values, currentStage(flag).stage)) return false;
    if (status && status.length > 0 && !status.some((s) => flag.environments[s.environment] !== undefined && flag.environments[s.environment]!.enabled === s.enabled)) return false;
    return true;
  };
}
