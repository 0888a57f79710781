/**
 * Strategy bodies (docs/admin-contract.md §2.4, §2.7; docs/api-decisions.md "Strategies"): add, put and
 * default-strategy requests, and a strategy record after a JSON Patch.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import {
  RESERVED_NAMES,
  identifier,
  strictBoolean,
  boundedString,
  integerIn,
  nonEmptyString,
  strictObject,
} from './common.schema.js';
import { ConstraintSchema } from './constraint.schema.js';
import { mustBe } from './messages.js';
import { PayloadSchema } from './payload.schema.js';
import { TOTAL_WEIGHT, WeightTypeSchema, fixBelowTotal, uniqueNames, variableNeeded } from './variant.schema.js';

/** Limits of one strategy. */
export const STRATEGY_LIMITS = {
  constraints: SHAPE_LIMITS.constraints,
  parameters: SHAPE_LIMITS.parameters,
  parameterValue: SHAPE_LIMITS.parameterValue,
  variants: SHAPE_LIMITS.variants,
  segments: SHAPE_LIMITS.strategySegments,
} as const;

/**
 * `parameters`: string keys to strings. Numbers and booleans are stored as
 * their string (`rollout` comes both as `50` and `"50"`, docs/admin-contract.md §2.4). Reserved
 * names (`RESERVED_NAMES`) are refused as keys.
 */
export const ParametersSchema = v.pipe(
  // v.record takes an array as an object ({"0": ...}); a list of parameters is a mistake worth a 400.
  v.custom<Record<string, string | number | boolean>>(
    (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
    mustBe('an object of string values'),
  ),
  // valibot's record skips some of these keys silently; a request that sends them gets told instead.
  v.check(
    (p) => !Object.keys(p).some((key) => RESERVED_NAMES.has(key)),
    (issue) => `must not have a "${Object.keys(issue.input as object).find((key) => RESERVED_NAMES.has(key))}" key: the names of JavaScript's Object.prototype members (and "prototype") are reserved`,
  ),
  v.record(
    nonEmptyString(100),
    v.pipe(
      v.union(
        [v.string(), v.pipe(v.number(), v.finite()), v.boolean()],
        mustBe('a string, number or boolean'),
      ),
      v.transform(String),
      v.maxLength(STRATEGY_LIMITS.parameterValue, `must be at most ${STRATEGY_LIMITS.parameterValue} characters`),
    ),
    mustBe('an object of string values'),
  ),
  v.check(
    (p) => Object.keys(p).length <= STRATEGY_LIMITS.parameters,
    `must hold at most ${STRATEGY_LIMITS.parameters} parameters`,
  ),
);

/** A strategy variant (docs/admin-contract.md §2.7); `stickiness` defaults to `"default"`. */
export const StrategyVariantSchema = strictObject({
  name: nonEmptyString(100),
  weight: integerIn(0, TOTAL_WEIGHT),
  weightType: WeightTypeSchema,
  stickiness: v.optional(identifier(100), 'default'),
  payload: v.optional(PayloadSchema),
});
export type StrategyVariantBody = v.InferOutput<typeof StrategyVariantSchema>;

/** The fields of a strategy body (also the strategies of an import, `import.schema.ts`). */
export const strategyEntries = {
  // Any name here; that a strategy definition has it is decided in the project mailbox (decide/definition-refs.ts).
  name: identifier(SHAPE_LIMITS.name),
  title: v.optional(v.nullable(boundedString(100))),
  disabled: v.optional(v.nullable(strictBoolean())),
  sortOrder: v.optional(integerIn()),
  constraints: v.optional(
    v.pipe(
      v.array(ConstraintSchema, mustBe('an array of constraints')),
      v.maxLength(STRATEGY_LIMITS.constraints, `must hold at most ${STRATEGY_LIMITS.constraints} constraints`),
    ),
  ),
  parameters: v.optional(v.nullable(ParametersSchema)),
  variants: v.optional(
    v.pipe(
      v.array(StrategyVariantSchema, mustBe('an array of variants')),
      v.maxLength(STRATEGY_LIMITS.variants, `must hold at most ${STRATEGY_LIMITS.variants} variants`),
      uniqueNames(),
      // The rules of flag variants (docs/api-decisions.md "Variants"); the domain stores the distributed weights.
      variableNeeded(),
      fixBelowTotal(),
    ),
  ),
  segments: v.optional(
    v.pipe(
      v.array(integerIn(0), mustBe('an array of segment ids')),
      v.maxLength(STRATEGY_LIMITS.segments, `must hold at most ${STRATEGY_LIMITS.segments} segments`),
    ),
  ),
};

type RolloutInput = { name?: string | undefined; parameters?: Record<string, string> | null | undefined };

/** A gradual rollout's `rollout`, when given, is a whole percentage. */
function rolloutIsPercentage({ name, parameters }: RolloutInput): boolean {
  const rollout = parameters?.['rollout'];
  if (name !== 'flexibleRollout' || rollout === undefined) return true;
  return /^\d{1,3}$/.test(rollout) && Number(rollout) <= 100;
}

/** Issue at `parameters.rollout` (exported for the strategies of an import); a raw check because the path runs through an optional record. */
export function rolloutCheck<T extends RolloutInput>() {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed || rolloutIsPercentage(dataset.value)) return;
    const parameters = dataset.value.parameters ?? {};
    addIssue({
      message: 'must be an integer from 0 to 100 for flexibleRollout',
      path: [
        { type: 'object', origin: 'value', input: dataset.value, key: 'parameters', value: parameters },
        { type: 'object', origin: 'value', input: parameters, key: 'rollout', value: parameters['rollout'] },
      ],
    });
  });
}

/**
 * Body of add (`POST .../strategies`), put (`PUT .../strategies/:strategyId`)
 * and `POST .../default-strategy`. An `id` key (PUT bodies often echo it) is
 * accepted and dropped; `parameters: null` counts as absent. The output is a
 * `StrategyInput`; defaults (`title` null, `sortOrder`, rollout parameters...)
 * are the domain's to fill.
 *
 * @example v.parse(StrategySchema, { name: 'flexibleRollout', parameters: { rollout: 50 } })
 * // { name: 'flexibleRollout', parameters: { rollout: '50' } }
 */
export const StrategySchema = v.pipe(
  strictObject({ ...strategyEntries, id: v.optional(v.unknown()) }),
  rolloutCheck(),
  v.transform(({ id: _id, parameters, ...rest }) => {
    // One output type with an optional key, rather than a union, and no `parameters: undefined` key to serialize.
    const body: typeof rest & { parameters?: Record<string, string> } = rest;
    if (parameters) body.parameters = parameters;
    return body;
  }),
);
export type StrategyBody = v.InferOutput<typeof StrategySchema>;

/**
 * A strategy record after a JSON Patch: the body rules plus a required `id`
 * and `sortOrder`. The output is a full `Strategy` (absent fields at their
 * defaults), so it can replace the stored one; the caller checks that `id`
 * did not change.
 */
export const StrategyRecordSchema = v.pipe(
  strictObject({ ...strategyEntries, id: nonEmptyString(100), sortOrder: integerIn() }),
  rolloutCheck(),
  v.transform((s) => ({
    id: s.id,
    name: s.name,
    title: s.title ?? null,
    disabled: s.disabled ?? false,
    sortOrder: s.sortOrder,
    constraints: s.constraints ?? [],
    parameters: s.parameters ?? {},
    variants: s.variants ?? [],
    segments: s.segments ?? [],
  })),
);
export type StrategyRecord = v.InferOutput<typeof StrategyRecordSchema>;
