/**
 * One closure per constraint operator, built from a constraint once: value
 * lists become Sets or lower-cased arrays, numbers, dates, versions and CIDR
 * ranges are parsed here so a request only reads its own context value.
 * Semantics are the Node SDK's (`strategy/strategy.js`), which is what a
 * client of the frontend API would otherwise have computed itself.
 */
import semver from 'semver';
import type { ConstraintDefinition } from './definition.types.js';
import type { EvaluationContext } from './evaluation.types.js';
import { currentTimeMillis, resolveContextValue } from './context-value.js';
import { inRange, parseIpRange, sameAddress, type IpRange } from './ip-ranges.js';

/** A yes/no question about a context. */
export type ContextTest = (context: EvaluationContext) => boolean;

const never: ContextTest = () => false;

/** The SDK drops empty values and trims the rest (in that order, so `' '` becomes `''`). */
function cleanValues(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const value of values ?? []) if (typeof value === 'string' && value !== '') out.push(value.trim());
  return out;
}

/** IN / NOT_IN: exact and case-sensitive; the SDK ignores `caseInsensitive` for these two. */
function membership(c: ConstraintDefinition, negate: boolean): ContextTest {
  const set = new Set(cleanValues(c.values));
  const name = c.contextName;
  return (context) => {
    const value = resolveContextValue(context, name);
    // A missing field is in no list: IN is false and NOT_IN true.
    const found = value !== undefined && set.has(value);
    return negate ? !found : found;
  };
}

type StringMatch = (value: string, candidate: string) => boolean;
const startsWith: StringMatch = (value, candidate) => value.startsWith(candidate);
const endsWith: StringMatch = (value, candidate) => value.endsWith(candidate);
const contains: StringMatch = (value, candidate) => value.includes(candidate);

/**
 * STR_*: any value matches. Lower-casing is locale-independent so the answer
 * does not depend on the server's locale (the SDK's `toLocaleLowerCase` does).
 */
function stringMatch(c: ConstraintDefinition, match: StringMatch): ContextTest {
  const fold = c.caseInsensitive === true;
  const candidates = cleanValues(c.values).map((v) => (fold ? v.toLowerCase() : v));
  const name = c.contextName;
  return (context) => {
    const raw = resolveContextValue(context, name);
    if (raw === undefined) return false;
    const value = fold ? raw.toLowerCase() : raw;
    for (let i = 0; i < candidates.length; i++) if (match(value, candidates[i] as string)) return true;
    return false;
  };
}

type Compare = (left: number, right: number) => boolean;
const numberComparisons: Record<string, Compare> = {
  NUM_EQ: (a, b) => a === b,
  NUM_GT: (a, b) => a > b,
  NUM_GTE: (a, b) => a >= b,
  NUM_LT: (a, b) => a < b,
  NUM_LTE: (a, b) => a <= b,
};

/** NUM_*: `Number()` on both sides, NaN on either side is false (so `'12.0'` equals 12). */
function numberCompare(c: ConstraintDefinition, compare: Compare): ContextTest {
  const target = Number(c.value);
  if (Number.isNaN(target)) return never;
  const name = c.contextName;
  return (context) => {
    const value = Number(resolveContextValue(context, name));
    return !Number.isNaN(value) && compare(value, target);
  };
}

/** DATE_*: the context's `currentTime` (or now) against the value, strictly; `contextName` plays no part. */
function dateCompare(c: ConstraintDefinition, after: boolean): ContextTest {
  const target = Date.parse(c.value ?? '');
  if (Number.isNaN(target)) return never;
  return (context) => {
    const now = currentTimeMillis(context);
    return after ? now > target : now < target;
  };
}

const semverComparisons: Record<string, (order: number) => boolean> = {
  SEMVER_EQ: (order) => order === 0,
  SEMVER_GT: (order) => order > 0,
  SEMVER_LT: (order) => order < 0,
  SEMVER_GTE: (order) => order >= 0,
  SEMVER_LTE: (order) => order <= 0,
};

/**
 * SEMVER_*: the context value must be a strict semantic version that does not
 * start with `v` (the SDK's rule); pre-releases order as semver says.
 */
function semverCompare(c: ConstraintDefinition, accept: (order: number) => boolean): ContextTest {
  const target = semver.parse(c.value ?? null);
  if (!target) return never;
  const name = c.contextName;
  return (context) => {
    const value = resolveContextValue(context, name);
    if (!value || value.startsWith('v')) return false;
    const version = semver.parse(value);
    return version !== null && accept(version.compare(target));
  };
}

/**
 * IN_CIDR (SDK 6.x, not an Unleash 6.10 operator): the context address is
 * one of the listed ranges' addresses or lies inside one, IPv4 or IPv6.
 */
function cidrMatch(c: ConstraintDefinition): ContextTest {
  const ranges = cleanValues(c.values).map((v) => parseIpRange(v, 'any')).filter((r): r is IpRange => r !== undefined);
  if (ranges.length === 0) return never;
  const name = c.contextName;
  return (context) => {
    const value = resolveContextValue(context, name);
    const address = value === undefined ? undefined : parseIpRange(value, 'any');
    return address !== undefined && ranges.some((range) => sameAddress(address, range) || inRange(address, range));
  };
}

/**
 * The operator's test, before `inverted` applies; an unknown operator
 * (including REGEX, which needs an RE2 engine) is always false.
 *
 * @example
 * operatorTest({ contextName: 'userId', operator: 'IN', values: ['1', '2'] })({ userId: '2' }) // true
 */
export function operatorTest(c: ConstraintDefinition): ContextTest {
  const op = c.operator;
  if (op === 'IN' || op === 'NOT_IN') return membership(c, op === 'NOT_IN');
  if (op === 'STR_STARTS_WITH') return stringMatch(c, startsWith);
  if (op === 'STR_ENDS_WITH') return stringMatch(c, endsWith);
  if (op === 'STR_CONTAINS') return stringMatch(c, contains);
  if (op === 'DATE_AFTER' || op === 'DATE_BEFORE') return dateCompare(c, op === 'DATE_AFTER');
  if (op === 'IN_CIDR') return cidrMatch(c);
  if (Object.hasOwn(numberComparisons, op)) return numberCompare(c, numberComparisons[op] as Compare);
  if (Object.hasOwn(semverComparisons, op)) return semverCompare(c, semverComparisons[op] as (order: number) => boolean);
  return never;
}
