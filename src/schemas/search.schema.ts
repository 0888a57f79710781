/**
 * The query of `GET /api/admin/search/features` (Unleash 6.10's `featureSearchQueryParameters`): free text,
 * operator filters (`IS:default`, `IS_ANY_OF:a,b`, `INCLUDE:simple:beta`, `IS_ON_OR_AFTER:2024-01-31`), sort
 * and page. Every value is bounded; where Unleash ignores a malformed value, this answers 400 naming it
 * (docs/api-decisions.md "Flag search").
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { boundedString, looseObject } from './common.schema.js';
import { LIFECYCLE_STAGES } from './lifecycle.schema.js';
import { mustBe } from './messages.js';

export const SEARCH_IS_OPERATORS = ['IS', 'IS_NOT', 'IS_ANY_OF', 'IS_NONE_OF'] as const;
export const SEARCH_INCLUDE_OPERATORS = ['INCLUDE', 'DO_NOT_INCLUDE', 'INCLUDE_ALL_OF', 'INCLUDE_ANY_OF', 'EXCLUDE_IF_ANY_OF', 'EXCLUDE_ALL'] as const;
export const SEARCH_STATES = ['active', 'stale', 'potentially-stale'] as const;
export const SEARCH_SORT_FIELDS = ['createdAt', 'name', 'type', 'stale', 'project', 'lastSeenAt'] as const;

export type IsOperator = (typeof SEARCH_IS_OPERATORS)[number];
export type IncludeOperator = (typeof SEARCH_INCLUDE_OPERATORS)[number];

/** One query value given once (Unleash reads a repeated one as a list it does not expect). */
const once = (max: number) => v.pipe(v.string(mustBe('a string, given once')), v.maxLength(max, `must be at most ${max} characters`));

/** `OPERATOR:value[,value...]`, the values trimmed, at most `searchFilterValues` of them. */
function operatorFilter<const Op extends string>(operators: readonly Op[]) {
  const pattern = new RegExp(`^(${operators.join('|')}):.+$`, 's');
  return v.optional(v.pipe(
    once(SHAPE_LIMITS.searchText),
    v.regex(pattern, `must be OPERATOR:value[,value...] with OPERATOR one of ${operators.join(', ')}`),
    v.transform((s) => {
      const at = s.indexOf(':');
      return { operator: s.slice(0, at) as Op, values: s.slice(at + 1).split(',').map((x) => x.trim()) };
    }),
    v.check((f) => f.values.length <= SHAPE_LIMITS.searchFilterValues, `must list at most ${SHAPE_LIMITS.searchFilterValues} values`),
  ));
}

const TAG_VALUE = /^[^:]+:.+$/s;
const DATE = /^(IS_BEFORE|IS_ON_OR_AFTER):(\d{4}-\d{2}-\d{2})$/;
const validDay = (day: string) => {
  const t = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day;
};

const integerText = (min: number, max: number) => v.optional(v.pipe(
  once(20),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(min, `must be at least ${min}`),
  v.maxValue(max, `must be at most ${max}`),
));

/**
 * @example v.parse(FeatureSearchQuerySchema, { query: 'checkout', project: 'IS:default', limit: '20' })
 * // { query: ['checkout'], project: { operator: 'IS', values: ['default'] }, limit: 20 }
 */
export const FeatureSearchQuerySchema = looseObject({
  /** Comma-separated terms, each matched (case-insensitively) inside the name or the description. */
  query: v.optional(v.pipe(
    once(SHAPE_LIMITS.searchText),
    v.transform((s) => s.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== '')),
    v.check((terms) => terms.length <= SHAPE_LIMITS.searchFilterValues, `must hold at most ${SHAPE_LIMITS.searchFilterValues} comma-separated terms`),
  )),
  project: operatorFilter(SEARCH_IS_OPERATORS),
  type: operatorFilter(SEARCH_IS_OPERATORS),
  state: v.optional(v.pipe(
    operatorFilter(SEARCH_IS_OPERATORS),
    v.check((f) => f === undefined || f.values.every((s) => (SEARCH_STATES as readonly string[]).includes(s)), `values must be among ${SEARCH_STATES.join(', ')}`),
  )),
  tag: v.optional(v.pipe(
    operatorFilter(SEARCH_INCLUDE_OPERATORS),
    v.check((f) => f === undefined || f.values.every((t) => TAG_VALUE.test(t)), 'values must be of the form "type:value"'),
    v.transform((f) => f && {
      operator: f.operator,
      values: f.values.map((t) => ({ type: t.slice(0, t.indexOf(':')).trim(), value: t.slice(t.indexOf(':') + 1).trim() })),
    }),
  )),
  segment: operatorFilter(SEARCH_INCLUDE_OPERATORS),
  createdAt: v.optional(v.pipe(
    once(40),
    v.regex(DATE, 'must be IS_BEFORE:YYYY-MM-DD or IS_ON_OR_AFTER:YYYY-MM-DD'),
    v.check((s) => validDay(s.slice(s.indexOf(':') + 1)), 'must name a real day (YYYY-MM-DD)'),
    v.transform((s) => ({ operator: s.slice(0, s.indexOf(':')) as 'IS_BEFORE' | 'IS_ON_OR_AFTER', day: `${s.slice(s.indexOf(':') + 1)}T00:00:00.000Z` })),
  )),
  /** `environment:enabled` or `environment:disabled`, repeatable: a flag in any of these states is kept. */
  status: v.optional(v.pipe(
    v.union([v.pipe(v.string(), v.transform((s) => [s])), v.array(v.string())], mustBe('a string or repeated strings')),
    v.maxLength(SHAPE_LIMITS.searchFilterValues, `must be given at most ${SHAPE_LIMITS.searchFilterValues} times`),
    v.array(v.pipe(boundedString(SHAPE_LIMITS.name + 10), v.regex(/^[^:]+:(enabled|disabled)$/, 'must be "environment:enabled" or "environment:disabled"'))),
    v.transform((list) => list.map((s) => ({ environment: s.slice(0, s.lastIndexOf(':')), enabled: s.endsWith(':enabled') }))),
  )),
  archived: v.optional(v.pipe(once(10), v.picklist(['IS:true', 'IS:false'], 'must be IS:true or IS:false'), v.transform((s) => s === 'IS:true'))),
  /** flagpole keeps no favourites: accepted, and changes nothing (every flag has `favorite: false`). */
  favoritesFirst: v.optional(v.pipe(once(10), v.picklist(['true', 'false'], 'must be true or false'))),
  /** The ids of the users who created the flag (`IS:3`, `IS_ANY_OF:3,4`); flags an API token created have none. */
  createdBy: v.optional(v.pipe(
    operatorFilter(SEARCH_IS_OPERATORS),
    v.check((f) => f === undefined || f.values.every((s) => /^\d{1,15}$/.test(s)), 'values must be user ids'),
  )),
  /** The stage a flag is in now (`initial`, `pre-live`, `live`, `completed`, `archived`). */
  lifecycle: v.optional(v.pipe(
    operatorFilter(SEARCH_IS_OPERATORS),
    v.check((f) => f === undefined || f.values.every((s) => (LIFECYCLE_STAGES as readonly string[]).includes(s)), `values must be among ${LIFECYCLE_STAGES.join(', ')}`),
  )),
  sortBy: v.optional(v.pipe(
    once(SHAPE_LIMITS.name + 20),
    v.check((s) => (SEARCH_SORT_FIELDS as readonly string[]).includes(s) || /^environment:.+$/s.test(s), `must be one of ${SEARCH_SORT_FIELDS.join(', ')} or environment:<name>`),
  )),
  sortOrder: v.optional(v.pipe(once(10), v.picklist(['asc', 'desc'], 'must be asc or desc'))),
  offset: integerText(0, SHAPE_LIMITS.searchOffset),
  limit: integerText(1, SHAPE_LIMITS.searchPage),
});
export type FeatureSearchQuery = v.InferOutput<typeof FeatureSearchQuerySchema>;
