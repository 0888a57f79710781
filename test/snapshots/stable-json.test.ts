/** The streamed dump text is the printed one: stableJsonPieces joined is byte-identical to stableStringify. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stableJsonPieces, stableStringify } from '../../snapshots/stable-json.js';

const joined = (value: unknown, depth?: number) => [...stableJsonPieces(value, depth)].join('');

describe('stableJsonPieces', () => {
  test('joined, equals stableStringify for any JSON value, at any opening depth', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, depth) => {
      expect(joined(value, depth)).toBe(stableStringify(value));
    }), { numRuns: 2000 });
  });

  test('keys JavaScript orders specially (array indices) come out as JSON.stringify orders them', () => {
    const key = fc.oneof(fc.nat().map(String), fc.constantFrom('01', '-1', '1.5', '4294967294', '4294967295', '9999999999', '__proto__', 'toJSON', ''), fc.string());
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 8 })),
    })).node;
    fc.assert(fc.property(value, fc.integer({ min: 0, max: 5 }), (v, depth) => {
      expect(joined(v, depth)).toBe(stableStringify(v));
    }), { numRuns: 2000 });
  });

  test('the corners: empty containers, integer-like keys (which JSON.stringify puts first), omitted members, escapes', () => {
    const value = {
      z: [], y: {}, '10': 'ten', '2': 'two', b: [undefined, () => 1, null, { x: undefined }], a: { u: undefined, f: () => 1 },
      s: 'line\nbreak "quoted" \u2028 \ud800', n: [-0, 1e21, 0.1, -5], deep: [[[[[{ k: [1, { j: 2 }] }]]]]],
    };
    for (let depth = 0; depth <= 8; depth += 1) expect(joined(value, depth)).toBe(stableStringify(value));
    expect(Object.keys(JSON.parse(joined(value))).slice(0, 3)).toEqual(['2', '10', 'a']);
  });

  test('at the default depth a dump comes out one flag per piece, not as one string', () => {
    const flags = Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, environments: { dev: { enabled: false, strategies: [] } } }));
    const dump = { format: 1, projects: [{ id: 'p', seq: 1, meta: { id: 'p' }, flags }] };
    const pieces = [...stableJsonPieces(dump)];
    expect(pieces.join('')).toBe(stableStringify(dump));
    expect(pieces.filter((p) => p.includes('"name"'))).toHaveLength(50);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(200);
  });
});

describe('stableJsonPieces, beyond plain JSON', () => {
  test('toJSON is honoured as JSON.stringify honours it (a Date prints its ISO string)', () => {
    const value = { when: new Date('2025-01-01T00:00:00Z'), list: [new Date(0)], custom: { toJSON: (key: string) => ({ z: key, a: 1 }) } };
    for (let depth = 0; depth <= 3; depth += 1) expect(joined(value, depth)).toBe(stableStringify(value));
  });
});
