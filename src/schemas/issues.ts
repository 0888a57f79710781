/**
 * Turns valibot issues into the body of a 400 `ValidationError`: every
 * message names the property it is about (`"constraints.0.values": ...`), so
 * a user can find the mistake without reading the schema. However bad the
 * input, the body stays a few kilobytes: a handful of issues, each of
 * bounded length, so a megabyte of junk never comes back as tens of megabytes.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';

/** How many issues the top-level message spells out; `details` lists up to {@link DETAILS_MAX}. */
const MESSAGE_ISSUES = 3;

/** Most issues listed in `details`: enough to fix a body in a round or two, few enough to read. */
export const DETAILS_MAX = SHAPE_LIMITS.errorIssues;

/**
 * Longest text of one issue, in characters; longer ones (a long key in the path, a long value echoed back)
 * are cut and end with `…`. Room for a path a few levels deep and any message the schemas write.
 */
export const ISSUE_TEXT_MAX = SHAPE_LIMITS.errorMessage;

/** Issues formatted and compared for repeats; past these, issues are counted but not read. */
const ISSUES_READ = 1000;

/** `text` cut to at most `max` characters, ending with `…` when cut, never splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** One issue as text: `"<dot path>": <message>`, or the bare message for the whole input; at most {@link ISSUE_TEXT_MAX} characters. */
export function formatIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  return truncate(path ? `"${path}": ${issue.message}` : issue.message, ISSUE_TEXT_MAX);
}

/**
 * The `message` and `details` of a `ValidationError` from valibot issues (each detail with the dot path of the
 * field it names, when it names one): the first
 * {@link DETAILS_MAX} distinct issues in `details`, the first three in the message with how many more
 * there are. The work is bounded too: only the first 1000 issues are formatted and compared for repeats,
 * the rest are counted. `complete: false` says the issues are only the first ones found (a validation
 * that stopped early, as `safeParseCapped` does), so the count is a lower bound.
 *
 * @example
 * const result = v.safeParse(CreateFeatureSchema, { name: 'a b' });
 * if (!result.success) formatIssues(result.issues);
 * // { message: '"name": must be URL-friendly (...)', details: [{ message: '"name": must be URL-friendly (...)', path: 'name' }] }
 */
export function formatIssues(
  issues: readonly v.BaseIssue<unknown>[],
  { complete = true }: { complete?: boolean } = {},
): { message: string; details: { message: string; path?: string }[] } {
  // A union may repeat the same complaint per option; say each thing once.
  const byText = new Map<string, string | undefined>();
  for (const issue of issues.slice(0, ISSUES_READ)) {
    const text = formatIssue(issue);
    if (!byText.has(text)) byText.set(text, v.getDotPath(issue) ?? undefined);
  }
  const texts = [...byText.keys()];
  if (texts.length === 0) return { message: 'invalid input', details: [] };
  const count = texts.length + Math.max(issues.length - ISSUES_READ, 0);
  const shown = texts.slice(0, MESSAGE_ISSUES).join('; ');
  const more = count - MESSAGE_ISSUES;
  let message = more > 0 ? `${shown}; and ${more} more` : shown;
  if (!complete) message = `${shown}; and ${more > 0 ? `at least ${more}` : 'possibly'} more`;
  // The path is for forms (src/console/forms/); the API's error body lists the messages only (`errorResponse`).
  return { message, details: texts.slice(0, DETAILS_MAX).map((text) => { const path = byText.get(text); return path ? { message: text, path } : { message: text }; }) };
}
