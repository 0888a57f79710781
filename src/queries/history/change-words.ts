/**
 * The words of a readable diff: one {@link FieldChange} per field that moved, and the small builders the
 * diffs of flags, strategies and events share, so every page says a change the same way.
 */

/** One field that moved, as a person reads it. */
export interface FieldChange {
  /** Where, in words: `development`, `production › flexibleRollout "Beta" › rollout`, `tags`. */
  path: string;
  /** The value before, as text; null where there was none (something added). */
  before: string | null;
  /** The value after, as text; null where there is none any more (something removed). */
  after: string | null;
  /** For list fields: the items added and removed (then `before`/`after` are null). */
  added?: string[];
  removed?: string[];
  /** The whole change in one line: `development: off → on`, `values: +[a, b] −[c]`. */
  text: string;
}

/** Joins path parts with the separator every page shows. */
export const pathOf = (...parts: (string | null | undefined)[]): string => parts.filter((p) => p !== null && p !== undefined && p !== '').join(' › ');

/** A value moved from `before` to `after` (either may be null: none). */
export function moved(path: string, before: string | null, after: string | null): FieldChange {
  return { path, before, after, text: `${path}: ${before ?? '(none)'} → ${after ?? '(none)'}` };
}

/** Something (named by `path`) that appeared, with what it is. */
export const added = (path: string, what: string): FieldChange => ({ path, before: null, after: what, text: `${path}: added ${what}`.trimEnd() });

/** Something (named by `path`) that went away, with what it was. */
export const removed = (path: string, what: string): FieldChange => ({ path, before: what, after: null, text: `${path}: removed ${what}`.trimEnd() });

/** A value as text: strings as they are, empty as `""`, the rest as JSON. */
export function words(value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return JSON.stringify(value);
}

/** A change of a scalar field, or nothing when it did not move. */
export function scalar(path: string, before: unknown, after: unknown, out: FieldChange[], say: (v: unknown) => string = words): void {
  if (before === after) return;
  if (typeof before === 'object' && before !== null && JSON.stringify(before) === JSON.stringify(after)) return;
  out.push(moved(path, before === undefined ? null : say(before), after === undefined ? null : say(after)));
}

/**
 * A change of a list read as a set (constraint values, tags, segments, environments): what was added and
 * what was removed, or nothing when both are empty.
 *
 * @example lists('values', ['c', 'd'], ['a', 'b', 'd'], out) // text 'values: +[a, b] −[c]'
 */
export function lists(path: string, before: readonly string[], after: readonly string[], out: FieldChange[]): void {
  const was = new Set(before);
  const now = new Set(after);
  const plus = after.filter((x) => !was.has(x));
  const minus = before.filter((x) => !now.has(x));
  if (plus.length === 0 && minus.length === 0) return;
  const parts = [plus.length > 0 ? `+[${plus.join(', ')}]` : '', minus.length > 0 ? `−[${minus.join(', ')}]` : ''].filter(Boolean);
  out.push({ path, before: null, after: null, added: plus, removed: minus, text: `${path}: ${parts.join(' ')}` });
}

/**
 * Pairs two keyed lists (strategies by id, variants by name): what each key was before and is after,
 * in the order of `after` then the removed ones.
 */
export function paired<T>(before: readonly T[], after: readonly T[], key: (item: T) => string): [T | undefined, T | undefined][] {
  const was = new Map(before.map((item) => [key(item), item]));
  const pairs: [T | undefined, T | undefined][] = after.map((item) => [was.get(key(item)), item]);
  const now = new Set(after.map(key));
  for (const item of before) if (!now.has(key(item))) pairs.push([item, undefined]);
  return pairs;
}
