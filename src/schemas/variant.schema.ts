/**
 * Flag-level variants (docs/admin-contract.md §2.6, §4.14, §4.15; docs/api-decisions.md "Variants"): the
 * shape of one variant, the rules of a list, and how stored weights are
 * computed from it.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { FlagNameSchema, identifier, integerIn, strictObject } from './common.schema.js';
import { mustBe, oneOf } from './messages.js';
import { PayloadSchema } from './payload.schema.js';

export const WEIGHT_TYPES = ['variable', 'fix'] as const;
/** Weights are per mille: all stored weights of a list total this. */
export const TOTAL_WEIGHT = 1000;
/** Most variants one flag may carry. */
export const VARIANTS_MAX = SHAPE_LIMITS.variants;

/** `variable` or `fix`. */
export const WeightTypeSchema = v.picklist(WEIGHT_TYPES, oneOf(WEIGHT_TYPES));

/** An override: the context values that always get this variant. */
export const OverrideSchema = strictObject({
  contextName: identifier(100),
  values: v.pipe(
    v.array(
      v.pipe(v.string(mustBe('a string')), v.maxLength(100, 'must be at most 100 characters')),
      mustBe('an array of strings'),
    ),
    v.maxLength(SHAPE_LIMITS.overrideValues, `must hold at most ${SHAPE_LIMITS.overrideValues} values`),
  ),
});

/**
 * One flag variant; `stickiness` defaults to `"default"`, `overrides` to `[]`.
 * The name follows the flag name rules (URL-friendly, 1 to 100 characters).
 */
export const VariantSchema = strictObject({
  name: FlagNameSchema,
  weightType: WeightTypeSchema,
  weight: integerIn(0, TOTAL_WEIGHT),
  stickiness: v.optional(identifier(100), 'default'),
  payload: v.optional(PayloadSchema),
  overrides: v.optional(v.pipe(v.array(OverrideSchema, mustBe('an array')), v.maxLength(SHAPE_LIMITS.overrides, `must hold at most ${SHAPE_LIMITS.overrides} overrides`)), () => []),
});
export type VariantBody = v.InferOutput<typeof VariantSchema>;
/** An override as stored. */
export type OverrideBody = v.InferOutput<typeof OverrideSchema>;

type Weighted = { name: string; weightType: 'variable' | 'fix'; weight: number };

/**
 * Raw check: every name once. The issue points at the second use, so the
 * message reads `"2.name": variant names must be unique...`.
 */
export function uniqueNames<T extends { name: string }>() {
  return v.rawCheck<T[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<string>();
    dataset.value.forEach((item, index) => {
      if (seen.has(item.name)) {
        addIssue({
          message: `variant names must be unique: "${item.name}" is used more than once`,
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: index, value: item },
            { type: 'object', origin: 'value', input: item, key: 'name', value: item.name },
          ],
        });
      }
      seen.add(item.name);
    });
  });
}

/** The total of the `fix` weights of a list. */
export const fixTotal = (variants: readonly Weighted[]): number =>
  variants.reduce((sum, x) => (x.weightType === 'fix' ? sum + x.weight : sum), 0);

/** Check: a non-empty list has at least one `variable` variant (flag and strategy variants alike). */
export function variableNeeded<T extends Weighted>() {
  return v.check<T[], string>(
    (list) => list.length === 0 || list.some((x) => x.weightType === 'variable'),
    'a non-empty variant list needs at least one variant with weightType "variable"',
  );
}

/** Check: the `fix` weights total strictly below 1000. */
export function fixBelowTotal<T extends Weighted>() {
  return v.check<T[], (issue: v.CheckIssue<T[]>) => string>(
    (list) => fixTotal(list) < TOTAL_WEIGHT,
    (issue) => `the weights of "fix" variants must total less than ${TOTAL_WEIGHT}, got ${fixTotal(issue.input)}`,
  );
}

/**
 * Body of `PUT .../features/:featureName/variants`, and the list after a
 * `PATCH` of it. Rules (docs/admin-contract.md §4.14): names unique; a non-empty list has at
 * least one `variable` variant; the `fix` weights total strictly below 1000.
 * Weights are not yet distributed: pass the output to {@link distributeWeights}.
 */
export const VariantsSchema = v.pipe(
  v.array(VariantSchema, mustBe('an array of variants')),
  v.maxLength(VARIANTS_MAX, `must hold at most ${VARIANTS_MAX} variants`),
  uniqueNames(),
  variableNeeded(),
  fixBelowTotal(),
);
export type VariantsBody = v.InferOutput<typeof VariantsSchema>;

/** The variants array after a JSON Patch: validated exactly like a PUT body. */
export const VariantPatchResultSchema = VariantsSchema;

/**
 * Stored weights (docs/api-decisions.md "Variants"): each `fix` variant keeps its
 * weight; 1000 minus the fix total is split over the `variable` variants,
 * each gets the floor of its share and the remainder goes one by one to the
 * first variable variants in list order. Order is kept; inputs are not mutated.
 *
 * @example distributeWeights([fix 200, variable, variable]) // weights 200, 400, 400
 * @example distributeWeights([variable, variable, variable]) // weights 334, 333, 333
 */
export function distributeWeights<T extends Weighted = VariantBody>(variants: readonly T[]): T[] {
  const variableCount = variants.filter((x) => x.weightType === 'variable').length;
  if (variableCount === 0) return variants.map((x) => ({ ...x }));
  const rest = Math.max(0, TOTAL_WEIGHT - fixTotal(variants));
  const share = Math.floor(rest / variableCount);
  let remainder = rest - share * variableCount;
  return variants.map((x) => {
    if (x.weightType === 'fix') return { ...x };
    const weight = remainder > 0 ? share + 1 : share;
    if (remainder > 0) remainder -= 1;
    return { ...x, weight };
  });
}
