/**
 * The JSON text of dumps: every object's keys sorted, two-space indentation, a final newline. One function
 * prints it whole (the definition), one yields it in pieces for streaming; the two are byte-identical
 * (test/snapshots/stable-json.test.ts checks it on random JSON values).
 */

/** `JSON.stringify` replacer: objects re-created with sorted keys (arrays keep their order). */
const sortKeys = (_key: string, v: unknown): unknown => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const source = v as Record<string, unknown>;
  return Object.fromEntries(Object.keys(source).sort().map((k) => [k, source[k]]));
};

/**
 * JSON with every object's keys sorted (arrays keep their order), two-space indented and newline-terminated,
 * so two dumps of the same state are byte-identical and a diff of two dumps shows only what changed.
 *
 * @example stableStringify({ b: 1, a: [2, 1] }) // '{\n  "a": [\n    2,\n    1\n  ],\n  "b": 1\n}\n'
 */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(value, sortKeys, 2)}\n`;
}

/**
 * {@link stableStringify} of JSON data (plain objects, arrays, strings, numbers, booleans, null) in pieces,
 * in order: joined, they are byte-identical to it. Objects and arrays down to `openDepth` levels are written
 * member by member; anything deeper is one piece, so a piece is one element of a large list (one flag of a
 * dump at the default depth) rather than the whole document. The value must not change while iterating.
 * Pieces are written without `JSON.stringify`'s replacer, which re-creates every object: about half the
 * time and far less garbage.
 *
 * @example [...stableJsonPieces(dump)].join('') === stableStringify(dump)
 */
export function* stableJsonPieces(value: unknown, openDepth = 4): Generator<string, void, undefined> {
  yield* pieces(prepared('', value), '', openDepth);
  yield '\n';
}

function* pieces(value: unknown, indent: string, depth: number): Generator<string, void, undefined> {
  if (depth <= 0 || value === null || typeof value !== 'object') {
    yield write(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    for (let i = 0; i < value.length; i += 1) {
      yield `${i === 0 ? '[' : ','}\n${inner}`;
      const element = prepared(String(i), value[i]);
      if (omitted(element)) yield 'null';
      else yield* pieces(element, inner, depth - 1);
    }
    yield `\n${indent}]`;
    return;
  }
  const source = value as Record<string, unknown>;
  let first = true;
  for (const key of orderedKeys(source)) {
    const member = prepared(key, source[key]);
    if (omitted(member)) continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* pieces(member, inner, depth - 1);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/** One value as `JSON.stringify(value, sortKeys, 2)` writes it at `indent`. */
function write(value: unknown, indent: string): string {
  switch (typeof value) {
    case 'string':
    case 'number':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      // bigint throws, as in JSON.stringify; undefined, functions and symbols only reach here at the top.
      return String(JSON.stringify(value));
  }
  if (value === null) return 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let text = '[';
    for (let i = 0; i < value.length; i += 1) {
      const element = prepared(String(i), value[i]);
      text += `${i === 0 ? '\n' : ',\n'}${inner}${omitted(element) ? 'null' : write(element, inner)}`;
    }
    return `${text}\n${indent}]`;
  }
  const source = value as Record<string, unknown>;
  let text = '';
  for (const key of orderedKeys(source)) {
    const member = prepared(key, source[key]);
    if (omitted(member)) continue;
    text += `${text === '' ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: ${write(member, inner)}`;
  }
  return text === '' ? '{}' : `${text}\n${indent}}`;
}

/** A value as `JSON.stringify` sees it: what its `toJSON` gives, if it has one (a Date gives its ISO string). */
function prepared(key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

/** What `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** A key JavaScript orders before every other key of an object: an array index, in numeric order. */
const isIndex = (key: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;

/**
 * Keys in the order {@link sortKeys} leaves them: sorted, except that the object it builds lists array-index
 * keys first, in numeric order (`{ '10': 1, '2': 1, a: 1 }` prints `2`, `10`, `a`).
 */
function orderedKeys(source: Record<string, unknown>): string[] {
  const keys = Object.keys(source).sort();
  if (!keys.some(isIndex)) return keys;
  return [...keys.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isIndex(k))];
}
