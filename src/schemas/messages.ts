/**
 * Issue messages shared by the schemas. Valibot's defaults ("Invalid type:
 * Expected string but received 1") are written for developers; these read as
 * the second half of `"<property>": <message>` once `formatIssues` prefixes the
 * property path, which is what a 400 `ValidationError` shows to an API user.
 */
import type * as v from 'valibot';

type AnyIssue = v.BaseIssue<unknown>;

/**
 * Message for object schemas: one function covers the three issues an object
 * schema raises (not an object, missing key, unknown key), because valibot
 * passes the same message option to all of them.
 */
export function objectMessage(issue: AnyIssue): string {
  if (issue.expected === 'never') return 'is not a known property';
  const last = issue.path?.at(-1);
  if (last?.origin === 'key') return 'is required';
  return `must be an object, got ${issue.received}`;
}

/**
 * Message factory for a type mismatch, e.g. `mustBe('a string')` gives
 * `must be a string, got 12`.
 */
export function mustBe(what: string): (issue: AnyIssue) => string {
  return (issue) => `must be ${what}, got ${issue.received}`;
}

/** Message factory for a picklist: lists the accepted values. */
export function oneOf(options: readonly string[]): (issue: AnyIssue) => string {
  return (issue) => `must be one of ${options.join(', ')}, got ${issue.received}`;
}
