/**
 * A strategy constraint (docs/admin-contract.md §2.5), validated per operator
 * (docs/api-decisions.md "Strategies"): list operators need `values`, single-value operators a
 * `value` in the operator's format.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { identifier, strictBoolean, strictObject } from './common.schema.js';
import { isIsoDateTime, isNumericString, isStrictSemver } from './formats.js';
import { mustBe, oneOf } from './messages.js';

/** Every operator, in the order of docs/admin-contract.md §2.5. */
export const CONSTRAINT_OPERATORS = [
  'NOT_IN', 'IN',
  'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS',
  'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE',
  'DATE_AFTER', 'DATE_BEFORE',
  'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT',
] as const;

/** A constraint operator. */
export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

/** Longest single constraint value. */
export const CONSTRAINT_VALUE_MAX = SHAPE_LIMITS.constraintValue;
/** Most values one constraint may list. */
export const CONSTRAINT_VALUES_MAX = SHAPE_LIMITS.constraintValues;

const valueString = v.pipe(
  v.string(mustBe('a string')),
  v.maxLength(CONSTRAINT_VALUE_MAX, `must be at most ${CONSTRAINT_VALUE_MAX} characters`),
);

/** A single value; a JSON number (sent for `NUM_*`) becomes its string. */
const singleValue = v.pipe(
  v.union(
    [v.string(), v.pipe(v.number(), v.finite())],
    mustBe('a string or a number'),
  ),
  v.transform(String),
  v.maxLength(CONSTRAINT_VALUE_MAX, `must be at most ${CONSTRAINT_VALUE_MAX} characters`),
);

type Operator = (typeof CONSTRAINT_OPERATORS)[number];

const takesValues = (op: Operator) => op === 'IN' || op === 'NOT_IN' || op.startsWith('STR_');

/** The format each single-value operator class needs in `value`. */
const valueRules: { prefix: string; test: (s: string) => boolean; expects: string }[] = [
  { prefix: 'NUM_', test: isNumericString, expects: 'a number' },
  { prefix: 'DATE_', test: isIsoDateTime, expects: 'an ISO 8601 date or date-time with offset' },
  { prefix: 'SEMVER_', test: isStrictSemver, expects: 'a strict semantic version (e.g. 1.2.3)' },
];

function valueRule(op: Operator) {
  return valueRules.find((rule) => op.startsWith(rule.prefix));
}

/**
 * One constraint; `caseInsensitive` and `inverted` default to false.
 *
 * @example v.parse(ConstraintSchema, { contextName: 'userId', operator: 'IN', values: ['1'] })
 * // { contextName: 'userId', operator: 'IN', values: ['1'], caseInsensitive: false, inverted: false }
 * @example v.parse(ConstraintSchema, { contextName: 'n', operator: 'NUM_GT', value: 5 }).value // '5'
 */
export const ConstraintSchema = v.pipe(
  strictObject({
    contextName: identifier(100),
    operator: v.picklist(CONSTRAINT_OPERATORS, oneOf(CONSTRAINT_OPERATORS)),
    caseInsensitive: v.optional(strictBoolean(), false),
    inverted: v.optional(strictBoolean(), false),
    values: v.optional(
      v.pipe(
        v.array(valueString, mustBe('an array of strings')),
        v.maxLength(CONSTRAINT_VALUES_MAX, `must hold at most ${CONSTRAINT_VALUES_MAX} values`),
      ),
    ),
    value: v.optional(singleValue),
  }),
  v.forward(
    v.check(
      (c) => !takesValues(c.operator) || (c.values ?? []).some((s) => s !== ''),
      (issue) => `operator ${issue.input.operator} needs at least one non-empty value`,
    ),
    ['values'],
  ),
  v.forward(
    v.check(
      (c) => {
        const rule = valueRule(c.operator);
        return !rule || (c.value !== undefined && rule.test(c.value));
      },
      ({ input: c }) =>
        `operator ${c.operator} needs ${valueRule(c.operator)?.expects}, got ${c.value === undefined ? 'none' : JSON.stringify(c.value)}`,
    ),
    ['value'],
  ),
);
export type ConstraintBody = v.InferOutput<typeof ConstraintSchema>;
