/**
 * Building blocks shared by the resource schemas: bounded strings, the
 * URL-friendly names of flags, projects and environments, ISO dates, and a
 * strict object whose issues read well.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { isIsoDateTime, isUrlFriendly } from './formats.js';
import { mustBe, objectMessage } from './messages.js';

/** Longest flag, project, environment or strategy id accepted anywhere. */
export const NAME_MAX = SHAPE_LIMITS.name;

/**
 * Names no identifier may have: the members of `Object.prototype` (and `prototype`). Refused with a 400
 * everywhere a name is given (flags, projects, environments, variants, strategy parameters, context fields,
 * stickiness, usernames, token names), so no name can reach a prototype through an object used as a map.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** The issue of a reserved name. */
export const reservedMessage = (name: string) =>
  `must not be "${name}": the names of JavaScript's Object.prototype members are reserved`;

/** Refuses {@link RESERVED_NAMES}. */
export function notReserved() {
  return v.check((s: string) => !RESERVED_NAMES.has(s), (issue) => reservedMessage(String(issue.input)));
}

/** An identifier: 1 to `max` characters, not reserved. */
export function identifier(max: number = NAME_MAX) {
  return v.pipe(nonEmptyString(max), notReserved());
}

/** valibot's object schemas take an array for an object (`[]` has no required keys); these do not. */
function notAnArray<T>() {
  return v.check<T, string>((input) => !Array.isArray(input), 'must be an object, got Array');
}

/**
 * A strict object (unknown keys are issues) whose issues say `is required`,
 * `is not a known property` or `must be an object`; an array is not an object.
 *
 * @example strictObject({ name: FlagNameSchema })
 */
export function strictObject<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.pipe(v.strictObject(entries, objectMessage), notAnArray<v.InferOutput<v.StrictObjectSchema<TEntries, typeof objectMessage>>>());
}

/**
 * A plain object schema (unknown keys are dropped from the output), for path
 * parameters and bodies whose extra keys are ignored; an array is not an object.
 */
export function looseObject<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.pipe(v.object(entries, objectMessage), notAnArray<v.InferOutput<v.ObjectSchema<TEntries, typeof objectMessage>>>());
}

/** A string of at most `max` characters (may be empty). */
export function boundedString(max: number) {
  return v.pipe(
    v.string(mustBe('a string')),
    v.maxLength(max, `must be at most ${max} characters`),
  );
}

/**
 * Refuses a string that is not well-formed Unicode: a lone surrogate (`"x\\ud800"` is valid JSON) has no UTF-8
 * form, so it could be neither a key part of the store (`encodeURIComponent` throws) nor written to a page.
 */
export function wellFormed() {
  return v.check((s: string) => !/\p{Cs}/u.test(s), 'must be well-formed Unicode text (it holds a lone surrogate, such as "\\ud800")');
}

/** A string of 1 to `max` characters. */
export function nonEmptyString(max: number) {
  return v.pipe(
    v.string(mustBe('a string')),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );
}

/** A boolean, nothing coerced (`"true"` is an issue). */
export function strictBoolean() {
  return v.boolean(mustBe('a boolean'));
}

/** A safe integer in `[min, max]`. */
export function integerIn(min: number = Number.MIN_SAFE_INTEGER, max: number = Number.MAX_SAFE_INTEGER) {
  return v.pipe(
    v.number(mustBe('a number')),
    v.safeInteger('must be an integer'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
}

/** 1 to 100 characters, URL-friendly (`encodeURIComponent(s) === s`), not `.` or `..`. */
function urlFriendlyName() {
  return v.pipe(
    nonEmptyString(NAME_MAX),
    v.check(isUrlFriendly, "must be URL-friendly (letters, digits and - _ . ! ~ * ' ( ) only, not . or ..)"),
    notReserved(),
  );
}

/**
 * Names that also appear where `*` means "all" (token projects, the
 * default-strategy environment) must not be `*` themselves.
 */
function notWildcard() {
  return v.check((s: string) => s !== '*', 'must not be "*", which means "all"');
}

/**
 * A flag name: 1 to 100 characters, URL-friendly, not `.` or `..`; case-sensitive.
 *
 * @example v.parse(FlagNameSchema, 'new-checkout') // 'new-checkout'
 */
export const FlagNameSchema = urlFriendlyName();

/** A project id: the flag name rules, and not `*`. */
export const ProjectIdSchema = v.pipe(urlFriendlyName(), notWildcard());

/** An environment name: the flag name rules, and not `*`. */
export const EnvironmentNameSchema = v.pipe(urlFriendlyName(), notWildcard());

/** An environment name, or `*` for every environment of the project. */
export const EnvironmentOrAllSchema = v.union(
  [v.literal('*'), EnvironmentNameSchema],
  (issue) => issue.issues?.at(-1)?.message ?? 'must be an environment name or "*"',
);

/** A project id, or `*` for every project. */
export const ProjectIdOrAllSchema = v.union(
  [v.literal('*'), ProjectIdSchema],
  (issue) => issue.issues?.at(-1)?.message ?? 'must be a project id or "*"',
);

/** A strategy id in a path: 1 to 100 characters (ids are UUIDs, but a wrong one is a 404, not a 400). */
export const StrategyIdSchema = nonEmptyString(NAME_MAX);

/**
 * An integer id in a path (`userId`, `roleId`): digits only, a positive safe integer.
 *
 * @example v.parse(IntIdParamSchema, '42') // 42
 */
export const IntIdParamSchema = v.pipe(
  v.string(mustBe('a string')),
  v.regex(/^\d+$/, 'must be a positive integer'),
  v.transform(Number),
  v.safeInteger('must be a safe integer'),
  v.minValue(1, 'must be a positive integer'),
);

/**
 * An ISO 8601 date or date-time with offset, output as `Date#toISOString()`
 * so stored expiry dates compare as strings.
 *
 * @example v.parse(IsoDateSchema, '2030-01-01') // '2030-01-01T00:00:00.000Z'
 */
export const IsoDateSchema = v.pipe(
  v.string(mustBe('a string')),
  v.check(isIsoDateTime, 'must be an ISO 8601 date or date-time with offset'),
  v.transform((s) => new Date(s).toISOString()),
);

/** A free-text description: up to 10000 characters; `null` and absence mean `""`. */
export const DescriptionSchema = v.optional(
  v.pipe(v.nullable(boundedString(10_000)), v.transform((d) => d ?? '')),
  '',
);
