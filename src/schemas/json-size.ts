/**
 * The size of a value as JSON, measured without serializing it and without
 * walking further than a budget: the guard that lets a JSON Patch refuse an
 * operation before doing work proportional to a value that is too big.
 */

/** Printable ASCII other than `"` and `\\`: one byte each in JSON text. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** UTF-8 bytes of a string as a JSON string literal, quotes and escapes included. */
export const jsonStringBytes = (s: string): number =>
  PLAIN.test(s) ? s.length + 2 : Buffer.byteLength(JSON.stringify(s), 'utf8');

/** What {@link measureJson} found: UTF-8 bytes of `JSON.stringify(value)` and nesting depth (a scalar is 0). */
export interface JsonMeasure {
  bytes: number;
  depth: number;
}

/**
 * Measures `value` as JSON text, stopping as soon as it is known to be larger than `budget` bytes: the
 * work done is proportional to at most `budget` bytes of JSON, however large the value is. Iterative, so a
 * deep value cannot overflow the stack. Meant for values parsed from JSON (non-finite numbers, which JSON
 * cannot hold, count as their `String`, an upper bound of the `null` they would serialize to).
 *
 * @returns the measure, or `undefined` when the value is larger than `budget`.
 * @example measureJson({ a: [1, 'é'] }, 100) // { bytes: 15, depth: 2 }
 * @example measureJson('x'.repeat(1e6), 1000) // undefined, after looking at the length only
 */
export function measureJson(value: unknown, budget: number): JsonMeasure | undefined {
  let bytes = 0;
  let depth = 0;
  // Two parallel stacks (value, nesting level) rather than one of pairs: no allocation per value.
  const values: unknown[] = [value];
  const levels: number[] = [0];
  while (values.length > 0) {
    const item = values.pop();
    const level = levels.pop()!;
    if (typeof item === 'string') {
      // A UTF-8 byte is at least a UTF-16 unit: a string too long by its length is not serialized at all.
      bytes += item.length + 2 > budget - bytes ? budget + 1 : jsonStringBytes(item);
    } else if (typeof item === 'number' || typeof item === 'boolean') {
      bytes += String(item).length;
    } else if (item === null || typeof item !== 'object') {
      bytes += 4; // null; undefined and functions cannot come from JSON
    } else if (Array.isArray(item)) {
      depth = Math.max(depth, level + 1);
      bytes += 2 + Math.max(item.length - 1, 0);
      if (bytes > budget) return undefined;
      for (let i = item.length - 1; i >= 0; i -= 1) {
        values.push(item[i]);
        levels.push(level + 1);
      }
    } else {
      depth = Math.max(depth, level + 1);
      const keys = Object.keys(item);
      bytes += 2 + Math.max(keys.length - 1, 0) + keys.length; // braces, commas, colons
      for (let i = keys.length - 1; i >= 0 && bytes <= budget; i -= 1) {
        const key = keys[i]!;
        bytes += key.length + 2 > budget - bytes ? budget + 1 : jsonStringBytes(key);
        values.push((item as Record<string, unknown>)[key]);
        levels.push(level + 1);
      }
    }
    if (bytes > budget) return undefined;
  }
  return { bytes, depth };
}
