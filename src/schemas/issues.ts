/**
 * Turns valibot issues into the body of a 400 `ValidationError`: every
 * message names the property it is about (`"constraints.0.values": ...`), so
 * a user can find the mistake without reading the schema.
 */
import * as v from 'valibot';

/** How many issues the top-level message spells out; all of them are in `details`. */
const MESSAGE_ISSUES = 3;

/** One issue as text: `"<dot path>": <message>`, or the bare message for the whole input. */
export function formatIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  return path ? `"${path}": ${issue.message}` : issue.message;
}

/**
 * The `message` and `details` of a `ValidationError` from valibot issues.
 *
 * @example
 * const result = v.safeParse(CreateFeatureSchema, { name: 'a b' });
 * if (!result.success) formatIssues(result.issues);
 * // { message: '"name": must be URL-friendly (...)', details: [{ message: '"name": must be URL-friendly (...)' }] }
 */
export function formatIssues(
  issues: readonly v.BaseIssue<unknown>[],
): { message: string; details: { message: string }[] } {
  // A union may repeat the same complaint per option; say each thing once.
  const texts = [...new Set(issues.map(formatIssue))];
  if (texts.length === 0) return { message: 'invalid input', details: [] };
  const shown = texts.slice(0, MESSAGE_ISSUES).join('; ');
  const more = texts.length - MESSAGE_ISSUES;
  return {
    message: more > 0 ? `${shown}; and ${more} more` : shown,
    details: texts.map((message) => ({ message })),
  };
}
