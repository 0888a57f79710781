/**
 * Bodies of the SDK usage routes (`POST /api/client/register`, `POST /api/client/metrics` and their
 * `/api/frontend/client/*` twins), and the path and query of the admin reads of usage.
 *
 * Every key an SDK may add is accepted and ignored (`looseObject`): a 400 on a well-formed SDK post makes
 * the Node SDK stop sending metrics for good (`metrics.js sendMetrics`). What is stored is bounded and
 * checked: counts are non-negative safe integers, names are bounded and not reserved, and every string is
 * well-formed Unicode (a lone surrogate could be no key of the store: it would fail the usage flush).
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { FlagNameSchema, RESERVED_NAMES, boundedString, integerIn, looseObject, nonEmptyString, notReserved, wellFormed } from './common.schema.js';
import { mustBe } from './messages.js';

const NAME = SHAPE_LIMITS.name;
const CLIENT = SHAPE_LIMITS.clientName;

/** A string an SDK sends: at most `max` characters, well-formed Unicode. */
export const clientString = (max: number) => v.pipe(boundedString(max), wellFormed());

/** A count of evaluations: a non-negative safe integer. */
const CountSchema = integerIn(0);

/**
 * A date as SDKs send it: a string `Date.parse` reads (ISO 8601 with any fraction of a second, as the Node,
 * Go, Java, .NET and Python SDKs write them) or a number of milliseconds; output as milliseconds.
 */
export const ClientDateSchema = v.pipe(
  v.union([clientString(CLIENT), v.pipe(v.number(), v.finite())], mustBe('a date string or a number')),
  v.transform((value) => (typeof value === 'number' ? value : Date.parse(value))),
  v.check((ms) => Number.isFinite(ms) && Math.abs(ms) <= 8.64e15, 'must be a valid date'),
);

/**
 * A name an SDK counts (a flag or a variant): at most 100 characters and not reserved. It is not held to the
 * rules of flag names: an application may ask for any name, and a name that is no flag is simply not kept.
 */
const CountedNameSchema = v.pipe(clientString(NAME), notReserved());

/** The name of the first reserved key of an object, if any. */
const reservedKey = (value: object): string | undefined => Object.keys(value).find((key) => RESERVED_NAMES.has(key));

/**
 * An object used as a map from names to `value`: at most `max` keys, none reserved. valibot's record skips
 * `__proto__` silently; here it is refused, so no name can reach a prototype.
 */
function nameMap<T extends v.GenericSchema>(value: T, max: number, what: string) {
  return v.pipe(
    v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), mustBe(`an object of ${what}`)),
    v.check((map) => Object.keys(map).length <= max, `must hold at most ${max} ${what}`),
    v.check((map) => reservedKey(map) === undefined, (issue) =>
      `must not have a "${reservedKey(issue.input as object)}" key: the names of JavaScript's Object.prototype members (and "prototype") are reserved`),
    v.record(CountedNameSchema, value, mustBe(`an object of ${what}`)),
  );
}

/** One flag of a bucket: how often it was on (`yes`) and off (`no`), and how often each variant was given. */
export const FlagCountsSchema = looseObject({
  yes: v.optional(CountSchema, 0),
  no: v.optional(CountSchema, 0),
  variants: v.optional(nameMap(CountSchema, SHAPE_LIMITS.metricsVariants, 'variant counts'), {}),
});
export type FlagCountsBody = v.InferOutput<typeof FlagCountsSchema>;

/** An SDK's application name: 1 to 255 characters, not reserved. */
export const AppNameSchema = v.pipe(nonEmptyString(CLIENT), wellFormed(), notReserved());

/** An instance id; absent, `null` or empty means `default`, as Unleash. */
const InstanceIdSchema = v.pipe(
  v.optional(v.nullable(clientString(CLIENT)), null),
  v.transform((id) => (id === null || id === '' ? 'default' : id)),
);

/** A free string an SDK reports (`sdkVersion`, the deprecated body `environment`); null when absent. */
const OptionalClientString = v.optional(v.nullable(clientString(CLIENT)), null);

/** `POST /api/client/metrics`: one bucket of counts (Node SDK 6.12 `metrics.js createMetricsData`). */
export const ClientMetricsSchema = looseObject({
  appName: AppNameSchema,
  instanceId: InstanceIdSchema,
  environment: OptionalClientString,
  sdkVersion: OptionalClientString,
  bucket: looseObject({
    start: ClientDateSchema,
    stop: ClientDateSchema,
    toggles: v.optional(nameMap(FlagCountsSchema, SHAPE_LIMITS.metricsFlags, 'flags'), {}),
  }),
});
export type ClientMetricsBody = v.InferOutput<typeof ClientMetricsSchema>;

/** `POST /api/client/register`: an SDK starting (Node SDK 6.12 `metrics.js getClientData`). */
export const ClientRegisterSchema = looseObject({
  appName: AppNameSchema,
  instanceId: InstanceIdSchema,
  sdkVersion: OptionalClientString,
  environment: OptionalClientString,
  strategies: v.optional(
    v.pipe(
      v.array(clientString(CLIENT), mustBe('an array of strategy names')),
      v.maxLength(SHAPE_LIMITS.clientStrategies, `must list at most ${SHAPE_LIMITS.clientStrategies} strategies`),
    ),
    [],
  ),
  started: ClientDateSchema,
  interval: v.pipe(v.number(mustBe('a number')), v.finite('must be a finite number'), v.minValue(0, 'must be at least 0')),
});
export type ClientRegisterBody = v.InferOutput<typeof ClientRegisterSchema>;

/** `/api/admin/client-metrics/features/:featureName` */
export const FeatureMetricsParamsSchema = looseObject({ featureName: FlagNameSchema });

/** `?hoursBack=1..48` (default 48) of the raw hourly metrics. */
export const HoursBackQuerySchema = looseObject({
  hoursBack: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,2}$/, 'must be an integer from 1 to 48'), v.transform(Number), v.minValue(1, 'must be at least 1'), v.maxValue(48, 'must be at most 48')),
  ),
});

/** `/api/admin/metrics/applications/:appName` */
export const ApplicationParamsSchema = looseObject({ appName: AppNameSchema });
