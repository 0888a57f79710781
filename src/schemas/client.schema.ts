/**
 * The query of the client API for backend SDKs (`GET /api/client/features`): repeatable `project` and `tag`,
 * `namePrefix`, `environment` (read only for admin tokens). Extra keys, `inlineSegmentConstraints` among
 * them, are ignored, as Unleash ignores them; every value is bounded.
 */
import * as v from 'valibot';
import { boundedString, EnvironmentNameSchema, looseObject, ProjectIdOrAllSchema } from './common.schema.js';
import { mustBe } from './messages.js';

/** At most this many `project` or `tag` values in one query. */
export const CLIENT_QUERY_VALUES_MAX = 100;

/** A query parameter given once (a string) or repeated (an array), as a list of `item`s. */
export function repeatable<T extends v.GenericSchema<string>>(item: T) {
  return v.optional(
    v.pipe(
      v.union([v.pipe(v.string(), v.transform((s) => [s])), v.array(v.string())], mustBe('a string or repeated strings')),
      v.maxLength(CLIENT_QUERY_VALUES_MAX, `must be given at most ${CLIENT_QUERY_VALUES_MAX} times`),
      v.array(item),
    ),
  );
}

/**
 * A tag filter `type:value`. Unleash checks `/^\w+:.+$/`, which refuses tag types with `-` or `.` that its own
 * tag-type rules (URL-friendly names) accept; here the type is anything without a colon.
 */
export const TagFilterSchema = v.pipe(
  boundedString(200),
  v.regex(/^[^:]+:.+$/, 'must be of the form "type:value"'),
);

/**
 * `?project=web&project=app&namePrefix=checkout-&tag=simple:beta&environment=production`.
 *
 * @example v.parse(ClientFeaturesQuerySchema, { project: 'web', tag: ['simple:beta'] }) // { project: ['web'], tag: ['simple:beta'] }
 */
export const ClientFeaturesQuerySchema = looseObject({
  project: repeatable(ProjectIdOrAllSchema),
  namePrefix: v.optional(boundedString(100)),
  tag: repeatable(TagFilterSchema),
  environment: v.optional(EnvironmentNameSchema),
});
export type ClientFeaturesQuery = v.InferOutput<typeof ClientFeaturesQuerySchema>;
