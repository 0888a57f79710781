/**
 * The URL state of the console's flag table (`/projects/:projectId?q=...&type=...`): free text, filters, sort
 * and page, validated as an API route validates its query. A value that cannot mean anything (an unknown type,
 * sort or mark, `tag=beta`, `enabled=production:maybe`, `limit=ten`) is a 400 naming the parameter; a `limit`
 * above {@link FLAG_TABLE_PAGE_MAX} is clamped to it, so a hand-edited link still shows a page. List
 * parameters are repeated (`type=release&type=experiment`), as an HTML form with checkboxes sends them.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { looseObject } from './common.schema.js';
import { FLAG_TYPES } from './feature.schema.js';
import { mustBe, oneOf } from './messages.js';

/** Largest page of the table; a larger `limit` is clamped to it. */
export const FLAG_TABLE_PAGE_MAX = 100;
/** Rows per page when the URL names no `limit`. */
export const FLAG_TABLE_PAGE_DEFAULT = 50;
/** The staleness marks a filter can ask for (archived flags are shown with `archived=true` instead). */
export const FLAG_TABLE_STALENESS = ['stale', 'potentially-stale', 'fresh'] as const;
/** The columns the table sorts by. */
export const FLAG_TABLE_SORTS = ['createdAt', 'name', 'lastSeenAt', 'type'] as const;

export type FlagTableSort = (typeof FLAG_TABLE_SORTS)[number];
export type FlagTableStaleness = (typeof FLAG_TABLE_STALENESS)[number];

/** One value, given once. */
const once = (max: number) => v.pipe(v.string(mustBe('a string, given once')), v.maxLength(max, `must be at most ${max} characters`));

/** A parameter given once or repeated, as a list of at most `searchFilterValues` values, each checked by `item`. */
function repeated<T>(item: v.GenericSchema<string, T>) {
  const max = SHAPE_LIMITS.searchFilterValues;
  return v.optional(v.pipe(
    v.union([v.pipe(v.string(), v.transform((s) => [s])), v.array(v.string())], mustBe('a string or repeated strings')),
    v.maxLength(max, `must be given at most ${max} times`),
    v.array(item),
  ), []);
}

/** `<a>:<b>` split at its first colon, both sides trimmed. */
const pair = (text: string) => {
  const cut = text.indexOf(':');
  return [text.slice(0, cut).trim(), text.slice(cut + 1).trim()] as const;
};

const wholeNumber = () => v.pipe(once(20), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number));

/**
 * The table's query. Defaults: every active flag, sorted by `createdAt` newest first; `order` defaults to
 * `desc` for the date columns and `asc` for `name` and `type`.
 *
 * @example v.parse(FlagTableQuerySchema, { q: 'Checkout', enabled: 'production:on', sort: 'name', limit: '500' })
 * // { q: 'checkout', enabled: [{ environment: 'production', on: true }], sort: 'name', order: 'asc', limit: 100, offset: 0, ... }
 */
export const FlagTableQuerySchema = v.pipe(
  looseObject({
    /** Matched, case-insensitively, as one piece of text inside the name or the description. */
    q: v.optional(v.pipe(once(SHAPE_LIMITS.searchText), v.transform((s) => s.trim().toLowerCase()))),
    type: repeated(v.picklist(FLAG_TYPES, oneOf(FLAG_TYPES))),
    stale: repeated(v.picklist(FLAG_TABLE_STALENESS, oneOf(FLAG_TABLE_STALENESS))),
    tag: repeated(v.pipe(
      v.string(),
      v.maxLength(SHAPE_LIMITS.searchText, `must be at most ${SHAPE_LIMITS.searchText} characters`),
      v.check((s) => { const [t, value] = pair(s); return s.includes(':') && t !== '' && value !== ''; }, 'must be of the form "type:value"'),
      v.transform((s) => { const [type, value] = pair(s); return { type, value }; }),
    )),
    /** `<environment>:on` or `<environment>:off`; every one given must hold. */
    enabled: repeated(v.pipe(
      v.string(),
      v.maxLength(SHAPE_LIMITS.name + 4, `must be at most ${SHAPE_LIMITS.name + 4} characters`),
      v.regex(/^[^:]+:(on|off)$/, 'must be "<environment>:on" or "<environment>:off"'),
      v.transform((s) => { const [environment, state] = pair(s); return { environment, on: state === 'on' }; }),
    )),
    /** `true`: the archived flags instead of the active ones. */
    archived: v.optional(v.pipe(once(5), v.picklist(['true', 'false'], oneOf(['true', 'false'])), v.transform((s) => s === 'true')), 'false'),
    sort: v.optional(v.pipe(once(20), v.picklist(FLAG_TABLE_SORTS, oneOf(FLAG_TABLE_SORTS))), 'createdAt'),
    order: v.optional(v.pipe(once(4), v.picklist(['asc', 'desc'], oneOf(['asc', 'desc'])))),
    offset: v.optional(v.pipe(wholeNumber(), v.maxValue(SHAPE_LIMITS.searchOffset, `must be at most ${SHAPE_LIMITS.searchOffset}`)), '0'),
    limit: v.optional(v.pipe(
      wholeNumber(),
      v.minValue(1, 'must be at least 1'),
      v.transform((n) => Math.min(n, FLAG_TABLE_PAGE_MAX)),
    ), String(FLAG_TABLE_PAGE_DEFAULT)),
  }),
  v.transform((query) => ({ ...query, order: query.order ?? (query.sort === 'name' || query.sort === 'type' ? 'asc' as const : 'desc' as const) })),
);
export type FlagTableQuery = v.InferOutput<typeof FlagTableQuerySchema>;

/**
 * The URL query of `query`, with only what differs from the defaults, in a stable order: for the table's
 * links (a column's sort, the next page) and for sharing a view.
 *
 * @example flagTableSearch({ ...query, offset: query.offset + query.limit }) // 'q=checkout&offset=50'
 */
export function flagTableSearch(query: FlagTableQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.append('q', query.q);
  for (const type of query.type) params.append('type', type);
  for (const mark of query.stale) params.append('stale', mark);
  for (const { type, value } of query.tag) params.append('tag', `${type}:${value}`);
  for (const { environment, on } of query.enabled) params.append('enabled', `${environment}:${on ? 'on' : 'off'}`);
  if (query.archived) params.append('archived', 'true');
  const defaultOrder = query.sort === 'name' || query.sort === 'type' ? 'asc' : 'desc';
  if (query.sort !== 'createdAt') params.append('sort', query.sort);
  if (query.order !== defaultOrder) params.append('order', query.order);
  if (query.offset !== 0) params.append('offset', String(query.offset));
  if (query.limit !== FLAG_TABLE_PAGE_DEFAULT) params.append('limit', String(query.limit));
  return params.toString();
}
