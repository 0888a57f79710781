/**
 * Finding 1 at the unit level: `applyJsonPatch` prices every operation before doing it, so a patch of a
 * few kilobytes cannot grow a document (or the work done on it) past the limit, and a refused patch leaves
 * the document untouched; and `measureJson`, the bounded measure it relies on.
 */
import fc from 'fast-check';
import type { Operation } from 'fast-json-patch';
import { describe, expect, test } from 'vitest';
import { applyJsonPatch, PATCH_DEPTH_LIMIT, PATCH_RESULT_LIMIT } from '../../src/domain/json-patch.js';
import { measureJson } from '../../src/schemas/json-size.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** `applyJsonPatch`, also asserting that neither the document nor the operations were changed. */
function apply(document: unknown, operations: Operation[], limit?: number) {
  const before = structuredClone({ document, operations });
  const result = applyJsonPatch(document, operations, { limit });
  expect({ document, operations }).toEqual(before);
  return result;
}

const refusal = (result: ReturnType<typeof applyJsonPatch>) => {
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
};

/**
 * `apply` with `operations` behind a Proxy that notes which of them are read (by index): the result, and the
 * indexes read, so a test can see where the work stopped.
 */
function applyWatched(document: unknown, operations: Operation[]) {
  const indexes = new Set<number>();
  const watched = new Proxy(operations, {
    get: (target, key, receiver) => {
      if (typeof key === 'string' && /^\d+$/.test(key)) indexes.add(Number(key));
      return Reflect.get(target, key, receiver);
    },
  });
  const before = structuredClone({ document, operations });
  const result = applyJsonPatch(document, watched);
  expect({ document, operations }).toEqual(before);
  return { result, read: [...indexes].sort((a, b) => a - b) };
}

/** The hardening issue's patch: sixteen copies of the whole document into itself, each doubling it. */
const doubling = (copies = 16): Operation[] => Array.from({ length: copies }, (_, i) => ({ op: 'copy', from: '', path: `/copy${i}` }));

describe('measureJson', () => {
  test('gives the UTF-8 size of JSON.stringify and the nesting depth', { timeout: HEAVY_TEST_MS }, () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const measured = measureJson(value, Infinity);
        expect(measured?.bytes).toBe(bytes(value));
        const depth = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
        expect(measured?.depth).toBe(depth(value));
      }),
      { numRuns: 300 },
    );
    expect(measureJson({ a: [1, 'é', '"\n'], b: null, c: {}, d: [] }, Infinity)).toEqual({ bytes: 44, depth: 2 });
  });

  test('answers undefined exactly when the value is larger than the budget', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(200), (value, budget) => {
        expect(measureJson(value, budget) === undefined).toBe(bytes(value) > budget);
      }),
      { numRuns: 300 },
    );
  });

  test('stops looking as soon as the budget is spent', () => {
    let reads = 0;
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const watched = new Proxy(wide, { get: (target, key) => { reads += 1; return Reflect.get(target, key); } });
    expect(measureJson(watched, 100)).toBeUndefined();
    expect(reads).toBeLessThan(20);
    // A long string or array is refused by its length, without being read.
    expect(measureJson('x'.repeat(10_000_000), 1000)).toBeUndefined();
    expect(measureJson(new Array(10_000_000), 1000)).toBeUndefined();
  });

  test('walks deep values without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(measureJson(deep, Infinity)).toEqual({ bytes: 200_001, depth: 100_000 });
  });
});

describe('applyJsonPatch', () => {
  test('applies the operations in order to a copy', () => {
    const document = { a: 1, list: [1, 2], nested: { x: 'y' } };
    const result = apply(document, [
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/list/-', value: { deep: [1] } },
      { op: 'add', path: '/list/2/deep/-', value: 2 },
      { op: 'copy', from: '/nested', path: '/copied' },
      { op: 'move', from: '/list/0', path: '/first' },
      { op: 'remove', path: '/nested/x' },
      { op: 'test', path: '/copied/x', value: 'y' },
    ]);
    expect(result).toEqual({ ok: true, value: { a: 2, list: [2, { deep: [1, 2] }], nested: {}, copied: { x: 'y' }, first: 1 } });
  });

  test('refuses the 16-copy doubling patch with a 400 naming the limit, at the copy that would pass it', () => {
    const document = { name: 'f', description: 'x'.repeat(2800), parameters: {} };
    const { result, read } = applyWatched(document, doubling());
    const error = refusal(result);
    // 2.8 KB doubled nine times is past 1 MiB: the ninth copy (operation 8) is refused before it is done,
    // and no operation after it is read, so the work is that of a document under the limit.
    expect(error).toEqual({ kind: 'ValidationError', message: expect.stringMatching(/^Invalid JSON Patch: operation 8 \("copy"\) would make the document larger than 1048576 bytes/) });
    expect(read).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('takes the limit as a parameter, defaulting to the 1 MiB body limit', () => {
    expect(PATCH_RESULT_LIMIT).toBe(1024 * 1024);
    const document = { a: '' };
    expect(apply(document, [{ op: 'replace', path: '/a', value: 'x'.repeat(992) }], 1000).ok).toBe(true);
    expect(refusal(apply(document, [{ op: 'replace', path: '/a', value: 'x'.repeat(993) }], 1000)).message).toMatch(/larger than 1000 bytes/);
    expect(apply(document, [{ op: 'replace', path: '/a', value: 'x'.repeat(5000) }]).ok).toBe(true);
  });

  test('lets a large value be replaced by another as large: what an operation drops is subtracted', () => {
    const document = { constraints: Array.from({ length: 20_000 }, (_, i) => `user-${i}-${'x'.repeat(20)}`) };
    expect(bytes(document)).toBeGreaterThan(500_000);
    const next = document.constraints.map((id) => `${id}!`);
    const result = apply(document, [{ op: 'replace', path: '/constraints', value: next }]);
    expect(result.ok && (result.value as typeof document).constraints).toEqual(next);
    expect(apply(document, [{ op: 'remove', path: '/constraints' }, { op: 'add', path: '/constraints', value: next }]).ok).toBe(true);
  });

  test('lets a document already past the limit shrink, not grow', () => {
    const document = { big: 'x'.repeat(2000), small: 'y' };
    expect(apply(document, [{ op: 'replace', path: '/big', value: 'x'.repeat(1500) }], 1000).ok).toBe(true);
    expect(apply(document, [{ op: 'remove', path: '/small' }], 1000).ok).toBe(true);
    expect(refusal(apply(document, [{ op: 'add', path: '/more', value: 1 }], 1000)).message).toMatch(/larger than 1000 bytes/);
  });

  test('bounds what a patch copies in all, so copying and removing in turn does not loop on the work', () => {
    const document = { a: Array.from({ length: 12_000 }, (_, i) => ({ n: i, k: 'ab' })) }; // about 240 KB
    const operations: Operation[] = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0 ? { op: 'copy', from: '/a', path: '/b' } : { op: 'remove', path: '/b' });
    const { result, read } = applyWatched(document, operations);
    expect(refusal(result).message).toMatch(/operation 8 \("copy"\) would make the patch copy more than 1048576 bytes in all/);
    // Four copies of 240 KB done, the fifth refused, the 91 operations after it never read.
    expect(read).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test(`refuses nesting past ${PATCH_DEPTH_LIMIT} levels`, () => {
    const operations: Operation[] = Array.from({ length: 70 }, (_, i) => ({ op: 'add', path: '/a'.repeat(i + 1), value: {} }));
    expect(refusal(apply({}, operations)).message).toMatch(/operation 63 \("add"\) would nest the document more than 64 levels deep/);
    let deep: unknown = 1;
    for (let i = 0; i < 62; i += 1) deep = [deep];
    expect(refusal(apply({ a: { b: {} } }, [{ op: 'add', path: '/a/b/c', value: deep }])).message).toMatch(/levels deep/);
    expect(refusal(apply({ a: { b: { c: {} } } }, [{ op: 'add', path: '/x', value: deep }, { op: 'move', from: '/x', path: '/a/b/c/x' }])).message)
      .toMatch(/operation 1 \("move"\) would nest/);
  });

  test('refuses a move into itself, and a move or copy from nowhere, or from an inherited property', () => {
    expect(refusal(apply({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/c' }])).message).toMatch(/operation 0 \("move"\) would move a value into itself/);
    expect(refusal(apply({ a: { b: 1 } }, [{ op: 'move', from: '', path: '/a/c' }])).message).toMatch(/into itself/);
    expect(refusal(apply({ a: 1 }, [{ op: 'copy', from: '/nothing', path: '/b' }])).message).toMatch(/operation 0 \("copy"\) has a "from" that does not exist: "\/nothing"/);
    expect(refusal(apply({ a: 1 }, [{ op: 'copy', from: '/toString', path: '/b' }])).message).toMatch(/does not exist/);
    expect(refusal(apply({ a: [1] }, [{ op: 'move', from: '/a/1', path: '/b' }])).message).toMatch(/does not exist/);
    expect(refusal(apply({ a: [1], b: [] }, [{ op: 'move', from: '/a/0', path: '/b/3' }])).message).toMatch(/Invalid JSON Patch/);
    expect(refusal(apply({ a: 1 }, [{ op: 'move', from: '/a', path: '/missing/b' }])).message).toMatch(/Invalid JSON Patch/);
  });

  test('moves as a remove and an add, into arrays and objects and onto the root', () => {
    expect(apply({ l: [1, 2, 3] }, [{ op: 'move', from: '/l/0', path: '/l/-' }])).toEqual({ ok: true, value: { l: [2, 3, 1] } });
    expect(apply({ l: [1, 2, 3] }, [{ op: 'move', from: '/l/2', path: '/l/0' }])).toEqual({ ok: true, value: { l: [3, 1, 2] } });
    expect(apply({ a: 1, b: 2 }, [{ op: 'move', from: '/a', path: '/b' }])).toEqual({ ok: true, value: { b: 1 } });
    expect(apply({ a: { x: 1 } }, [{ op: 'move', from: '/a', path: '' }])).toEqual({ ok: true, value: { x: 1 } });
    expect(apply({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }])).toEqual({ ok: true, value: { a: 1 } });
  });

  test('a failed test is a 409 and nothing before it is kept', () => {
    const document = { a: 1 };
    expect(refusal(apply(document, [{ op: 'replace', path: '/a', value: 2 }, { op: 'test', path: '/a', value: 3 }])).kind).toBe('PatchTestFailed');
  });

  test('refuses what is not an RFC 6902 operation, or lacks its value', () => {
    expect(refusal(apply({ a: 1 }, [{ op: '_get', path: '/a', value: 0 }] as unknown as Operation[])).message).toMatch(/operation 0 \("_get"\) is not an RFC 6902 operation/);
    expect(refusal(apply({ a: 1 }, [{ op: 'add', path: '/b' }] as unknown as Operation[])).message).toMatch(/Invalid JSON Patch: Operation `value` property is not present/);
  });

  test('keeps fast-json-patch\'s prototype guard on', () => {
    const error = refusal(apply({}, [{ op: 'add', path: '/__proto__/polluted', value: 1 }]));
    expect(error.kind).toBe('ValidationError');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('inserts copies of the values it is given, so later operations never reach into the caller\'s', () => {
    const value = { list: [1] };
    const operations: Operation[] = [{ op: 'add', path: '/v', value }, { op: 'add', path: '/v/list/-', value: 2 }];
    expect(applyJsonPatch({}, operations)).toEqual({ ok: true, value: { v: { list: [1, 2] } } });
    expect(value).toEqual({ list: [1] });
  });

  test('patches a document its caller owns in place, within the same limits', () => {
    const document = { a: 1, b: 'x' };
    const result = applyJsonPatch(document, [{ op: 'replace', path: '/a', value: 2 }, { op: 'remove', path: '/b' }], { owned: true });
    expect(result).toEqual({ ok: true, value: { a: 2 } });
    expect(result.ok && result.value).toBe(document);
    const big = refusal(applyJsonPatch({ a: 1 }, [{ op: 'add', path: '/b', value: 'x'.repeat(2000) }], { limit: 1000, owned: true }));
    expect(big.message).toMatch(/larger than 1000 bytes/);
  });

  test('replaces, removes and copies onto the root', () => {
    expect(apply({ a: 1 }, [{ op: 'replace', path: '', value: [1] }])).toEqual({ ok: true, value: [1] });
    expect(apply({ a: 1 }, [{ op: 'remove', path: '' }])).toEqual({ ok: true, value: null });
    expect(apply({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '' }])).toEqual({ ok: true, value: { b: 1 } });
    expect(refusal(apply({ a: 1 }, [{ op: 'replace', path: '', value: 'x'.repeat(2000) }], 1000)).message).toMatch(/larger than 1000 bytes/);
  });
});
