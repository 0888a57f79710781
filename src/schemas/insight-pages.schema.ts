/**
 * The URL state of the console's insight pages (`/applications`, `/archive`, `/stale`) and the export link of
 * `/projects/:p/transfer`, validated as an API route validates its query. A GET form sends every field, empty
 * ones too: an empty value means "not given".
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { looseObject } from './common.schema.js';
import { mustBe, oneOf } from './messages.js';

/** Rows per page of the applications, the archive and the stale flags. */
export const INSIGHT_PAGE_SIZE = 50;

/** The kinds of flag the stale page lists: marked stale, past its type's lifetime, not asked for by any SDK. */
export const STALE_KINDS = ['stale', 'overdue', 'unused'] as const;
export type StaleKind = (typeof STALE_KINDS)[number];
const KINDS: readonly string[] = STALE_KINDS;

/** One text value, given once; empty or blank is absent. */
const optionalText = (max: number) => v.optional(v.pipe(
  v.string(mustBe('a string, given once')),
  v.maxLength(max, `must be at most ${max} characters`),
  v.transform((s) => (s.trim() === '' ? undefined : s.trim())),
));

/** A page number from 1 (empty: the first page). */
const pageNumber = () => v.optional(v.pipe(
  v.string(mustBe('a string, given once')),
  v.regex(/^\d{0,6}$/, 'must be a whole number'),
  v.transform((s) => Math.max(1, Number(s) || 1)),
), '1');

/**
 * `?q=&page=`: a name filter (part of the name, any case) and the page (from 1).
 *
 * @example v.parse(ListPageQuerySchema, { q: 'web', page: '2' }) // { q: 'web', page: 2 }
 */
export const ListPageQuerySchema = looseObject({ q: optionalText(SHAPE_LIMITS.name), page: pageNumber() });
export type ListPageQuery = v.InferOutput<typeof ListPageQuerySchema>;

/** `/applications/:appName?instances=&flags=`: the page of its instances and the page of the flags it reads. */
export const ApplicationPageQuerySchema = looseObject({ instances: pageNumber(), flags: pageNumber() });
export type ApplicationPageQuery = v.InferOutput<typeof ApplicationPageQuerySchema>;

/**
 * `/stale?project=&kind=&q=&page=`: the project (absent: the first with such flags), one kind or all of them.
 *
 * @example v.parse(StalePageQuerySchema, { project: 'default', kind: 'overdue' })
 */
export const StalePageQuerySchema = looseObject({
  project: optionalText(SHAPE_LIMITS.name),
  kind: v.optional(v.pipe(
    v.string(mustBe('a string, given once')),
    v.check((s) => s === '' || KINDS.includes(s), oneOf(KINDS)),
    v.transform((s) => (s === '' ? undefined : (s as StaleKind))),
  )),
  q: optionalText(SHAPE_LIMITS.name),
  page: pageNumber(),
});
export type StalePageQuery = v.InferOutput<typeof StalePageQuerySchema>;

/** `/projects/:p/transfer/export?environment=`: the environment whose switches and strategies are exported. */
export const ExportPageQuerySchema = looseObject({
  environment: v.pipe(v.string(mustBe('a string, given once')), v.minLength(1, 'must name an environment'), v.maxLength(SHAPE_LIMITS.name, `must be at most ${SHAPE_LIMITS.name} characters`)),
});
