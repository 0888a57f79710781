/**
 * The URL state of the console's history pages (`/projects/:p/history`, `/at`, `/compare`), validated as an API
 * route validates its query. A GET form sends every field, empty ones too: an empty value means "not given".
 * Moments are read as the API reads them (ISO 8601); a `datetime-local` value (no offset) is read as UTC, the
 * zone the pages show times in.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { looseObject } from './common.schema.js';
import { mustBe, oneOf } from './messages.js';

/** Entries per page of the history. */
export const HISTORY_PAGE_SIZE = 50;
/** Flags per page of a past view or a comparison. */
export const PAST_PAGE_SIZE = 100;

/** The kinds of change the history is filtered by (the keys of `CHANGE_KINDS`, src/queries/history/history.query.ts). */
export const HISTORY_KINDS = ['lifecycle', 'metadata', 'switch', 'strategy', 'variants', 'tags', 'dependencies', 'project', 'change-request'] as const;
const KINDS: readonly string[] = HISTORY_KINDS;

/** One text value, given once; empty or blank is absent. */
const optionalText = (max: number) => v.optional(v.pipe(
  v.string(mustBe('a string, given once')),
  v.maxLength(max, `must be at most ${max} characters`),
  v.transform((s) => (s.trim() === '' ? undefined : s.trim())),
));

/** A `datetime-local` value: a date and a time without an offset. */
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * A moment as a page receives it, as ISO 8601 with an offset (a `datetime-local` value gets `Z`); whether it
 * is a date is checked by the query, whose message names the parameter.
 *
 * @example momentInput('2026-03-01T09:30') // '2026-03-01T09:30Z'
 */
export const momentInput = (s: string): string => (LOCAL.test(s) ? `${s}Z` : s);

const moment = () => v.optional(v.pipe(
  v.string(mustBe('a string, given once')),
  v.maxLength(64, 'must be at most 64 characters'),
  v.transform((s) => (s.trim() === '' ? undefined : momentInput(s.trim()))),
));

const offset = () => v.optional(v.pipe(
  v.string(mustBe('a string, given once')),
  v.regex(/^\d{0,7}$/, 'must be a whole number'),
  v.transform(Number),
  v.maxValue(SHAPE_LIMITS.searchOffset, `must be at most ${SHAPE_LIMITS.searchOffset}`),
), '0');

/**
 * `/projects/:p/history?feature=&by=&kind=&from=&to=&offset=`: every filter optional; `kind` one of
 * {@link HISTORY_KINDS} (or empty: any).
 *
 * @example v.parse(HistoryPageQuerySchema, { feature: 'checkout', kind: 'switch', from: '2026-03-01T09:00' })
 */
export const HistoryPageQuerySchema = looseObject({
  feature: optionalText(SHAPE_LIMITS.name),
  by: optionalText(200),
  kind: v.optional(v.pipe(
    v.string(mustBe('a string, given once')),
    v.check((s) => s === '' || KINDS.includes(s), oneOf(KINDS)),
    v.transform((s) => (s === '' ? undefined : (s as (typeof HISTORY_KINDS)[number]))),
  )),
  from: moment(),
  to: moment(),
  offset: offset(),
});
export type HistoryPageQuery = v.InferOutput<typeof HistoryPageQuerySchema>;

/** `/projects/:p/at?t=&q=&offset=`: the moment (absent: the page asks for one), a name filter, the page. */
export const PastPageQuerySchema = looseObject({ t: moment(), q: optionalText(SHAPE_LIMITS.name), offset: offset() });
export type PastPageQuery = v.InferOutput<typeof PastPageQuerySchema>;

/** `/projects/:p/compare?from=&to=&offset=`. */
export const ComparePageQuerySchema = looseObject({ from: moment(), to: moment(), offset: offset() });
export type ComparePageQuery = v.InferOutput<typeof ComparePageQuerySchema>;
