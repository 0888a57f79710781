/**
 * Bodies, paths, queries and answers of the addon routes (Unleash's `addonCreateUpdateSchema`, `addonSchema`,
 * `addonsSchema`, `integrationEventsSchema`). As in Unleash, unknown body properties are dropped (a client may
 * send back the addon it read, `id` and `createdAt` included) and only `provider` is required.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { boundedString, looseObject, nonEmptyString, strictBoolean } from './common.schema.js';
import { mustBe } from './messages.js';

const { addonParameters, addonParameterValue, addonEvents, addonFilters, name } = SHAPE_LIMITS;

/** A parameter value: a string (bounded), a number or a boolean. */
const ParameterValueSchema = v.union([
  boundedString(addonParameterValue),
  v.pipe(v.number(), v.finite()),
  v.boolean(),
], mustBe('a string, a number or a boolean'));

/** `parameters`: names to values, as a map that inherits nothing (a name such as `__proto__` stays a key). */
const ParametersSchema = v.pipe(
  v.record(boundedString(name), ParameterValueSchema, mustBe('an object of parameter values')),
  v.check((p) => Object.keys(p).length <= addonParameters, `must hold at most ${addonParameters} parameters`),
  v.transform((p) => Object.assign(Object.create(null) as Record<string, string | number | boolean>, p)),
);

/** A list of names, bounded in length and in the characters of each. */
const names = (max: number) => v.optional(v.pipe(
  v.array(boundedString(name), mustBe('an array of strings')),
  v.maxLength(max, `must list at most ${max} entries`),
), []);

/**
 * The body of `POST /api/admin/addons` and `PUT /api/admin/addons/:id`. `description` absent is kept as absent (an
 * update then keeps the stored one), `null` reads as `""`.
 *
 * @example v.parse(AddonBodySchema, { provider: 'webhook', parameters: { url: 'https://example.com/hook' } }).enabled // true
 */
export const AddonBodySchema = looseObject({
  provider: nonEmptyString(name),
  enabled: v.optional(strictBoolean(), true),
  description: v.optional(v.pipe(v.nullable(boundedString(SHAPE_LIMITS.description)), v.transform((d) => d ?? ''))),
  parameters: v.optional(ParametersSchema, {}),
  events: names(addonEvents),
  projects: names(addonFilters),
  environments: names(addonFilters),
});
export type AddonBody = v.InferOutput<typeof AddonBodySchema>;

/** `:id` of `/api/admin/addons/:id`: an integer (anything else matches no addon, so it is a 404). */
export const AddonParamsSchema = v.object({ id: v.string() });

/**
 * The query of `GET /api/admin/addons/:id/events`, read as Unleash reads it: `limit` 1 to 100 (anything else: 50),
 * `offset` from 0 (a negative or unreadable one: 0).
 */
export const DeliveryLogQuerySchema = v.object({
  limit: v.optional(v.string()),
  offset: v.optional(v.string()),
});

/** An addon as answered (Unleash's `addonSchema`, with `createdAt`); sensitive parameters are `*****`. */
export const AddonView = v.object({
  id: v.number(), provider: v.string(), description: v.string(), enabled: v.boolean(),
  parameters: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
  events: v.array(v.string()), projects: v.array(v.string()), environments: v.array(v.string()), createdAt: v.string(),
});

/** `GET /api/admin/addons`: every addon and every provider's definition. */
export const AddonsView = v.object({ addons: v.array(AddonView), providers: v.array(v.looseObject({ name: v.string(), displayName: v.string() })) });

/** `GET /api/admin/addons/:id/events`: the delivery log, newest first. */
export const DeliveryLogView = v.object({
  integrationEvents: v.array(v.looseObject({
    id: v.string(), integrationId: v.number(), createdAt: v.string(), state: v.picklist(['success', 'failed', 'successWithErrors']),
    stateDetails: v.string(), event: v.looseObject({}), details: v.looseObject({}), attempt: v.number(), retryAt: v.nullable(v.string()),
  })),
});
