/**
 * Query and answers of the flag-creator lists (Unleash's `flagCreatorsQueryParameters`, `flagCreatorsSchema`
 * and `projectFlagCreatorsSchema`).
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { boundedString, looseObject } from './common.schema.js';

/** Page size when none (or an unusable one) is given, and the largest one taken (Unleash 8.1's). */
export const FLAG_CREATORS_PAGE = { default: 50, max: 10_000 } as const;

/** A count in the query: Unleash reads a missing, non-numeric or out-of-range one as its default, never a 400. */
const count = (fallback: number, max: number) => v.optional(v.pipe(
  v.unknown(),
  v.transform((raw) => {
    const n = Number(typeof raw === 'string' ? raw : Number.NaN);
    return Number.isInteger(n) && n > 0 && n <= max ? n : fallback;
  }),
), String(fallback));

/**
 * Query of `GET /api/admin/flag-creators`: `q` matches inside a name and at the start of a username or an email
 * (case-insensitive); `offset` and `limit` page.
 *
 * @example v.parse(FlagCreatorsQuerySchema, { q: 'ali', limit: 'x' }) // { q: 'ali', offset: 0, limit: 50 }
 */
export const FlagCreatorsQuerySchema = looseObject({
  q: v.optional(v.pipe(boundedString(SHAPE_LIMITS.searchText), v.transform((s) => s.trim()))),
  offset: count(0, Number.MAX_SAFE_INTEGER),
  limit: count(FLAG_CREATORS_PAGE.default, FLAG_CREATORS_PAGE.max),
});
export type FlagCreatorsQuery = v.InferOutput<typeof FlagCreatorsQuerySchema>;

/** One creator: the user's id and name (else username, else email). */
export const FlagCreatorView = v.object({ id: v.number(), name: v.string() });

/** `GET /api/admin/projects/:projectId/flag-creators`. */
export const ProjectFlagCreatorsView = v.array(FlagCreatorView);

/** `GET /api/admin/flag-creators`: one page and how many match in all. */
export const FlagCreatorsView = v.object({ flagCreators: v.array(FlagCreatorView), total: v.number() });
