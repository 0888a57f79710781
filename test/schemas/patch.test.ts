import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Operation } from 'fast-json-patch';
import { JsonPatchSchema, pointerSegments, type JsonPatch } from '../../src/schemas/patch.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

describe('JsonPatchSchema', () => {
  it('accepts every operation with what it needs, and drops keys it does not use', () => {
    const out = parseOk(JsonPatchSchema, [
      { op: 'add', path: '/parameters/x', value: 1 },
      { op: 'remove', path: '/title', value: 'ignored' },
      { op: 'replace', path: '/description', value: null },
      { op: 'move', path: '/a', from: '/b' },
      { op: 'copy', path: '/c', from: '/d', value: 'ignored' },
      { op: 'test', path: '', value: {} },
    ]);
    expect(out).toEqual([
      { op: 'add', path: '/parameters/x', value: 1 },
      { op: 'remove', path: '/title' },
      { op: 'replace', path: '/description', value: null },
      { op: 'move', path: '/a', from: '/b' },
      { op: 'copy', path: '/c', from: '/d' },
      { op: 'test', path: '', value: {} },
    ]);
  });

  it('outputs fast-json-patch operations', () => {
    expectTypeOf<JsonPatch>().toEqualTypeOf<Operation[]>();
  });

  it.each([
    ['/__proto__/polluted'],
    ['/constructor/prototype/polluted'],
    ['/a/prototype'],
    ['/parameters/constructor'],
    ['/x/__proto__'],
  ])('refuses the hostile path %j', (path) => {
    expectIssue(JsonPatchSchema, [{ op: 'add', path, value: 1 }], '0.path', '"__proto__", "constructor" or "prototype"');
  });

  it('refuses a hostile from', () => {
    expectIssue(JsonPatchSchema, [{ op: 'copy', path: '/a', from: '/__proto__' }], '0.from', '"__proto__"');
  });

  it('accepts an empty patch (a 200 that changes nothing, as in Unleash)', () => {
    expect(parseOk(JsonPatchSchema, [])).toEqual([]);
  });

  it('unescapes pointer segments before checking them, and accepts look-alikes', () => {
    expect(pointerSegments('/a~1b/c~0d/~01')).toEqual(['a/b', 'c~d', '~1']);
    expect(parseOk(JsonPatchSchema, [{ op: 'add', path: '/parameters/__proto__x', value: 1 }])).toHaveLength(1);
    expect(parseOk(JsonPatchSchema, [{ op: 'add', path: '/parameters/constructor~1', value: 1 }])).toHaveLength(1);
  });

  it.each([
    [{ op: 'add', path: '/a', value: 1 }, '', 'must be an array of JSON Patch operations'],
    [Array.from({ length: 101 }, () => ({ op: 'remove', path: '/a' })), '', 'at most 100 operations'],
    [[{ path: '/a', value: 1 }], '0.op', 'is required'],
    [[{ op: 'merge', path: '/a', value: 1 }], '0.op', 'must be one of add, remove'],
    [[{ op: '_get', path: '/a', value: 1 }], '0.op', 'must be one of'],
    [[{ op: 'add', value: 1 }], '0.path', 'is required'],
    [[{ op: 'add', path: 'description', value: 1 }], '0.path', 'JSON pointer'],
    [[{ op: 'add', path: 5, value: 1 }], '0.path', 'must be a string'],
    [[{ op: 'add', path: '/a' }], '0.value', 'required by the "add" operation'],
    [[{ op: 'replace', path: '/a' }], '0.value', 'required by the "replace" operation'],
    [[{ op: 'test', path: '/a' }], '0.value', 'required by the "test" operation'],
    [[{ op: 'move', path: '/a' }], '0.from', 'required by the "move" operation'],
    [[{ op: 'copy', path: '/a' }], '0.from', 'required by the "copy" operation'],
    [[{ op: 'copy', path: '/a', from: 'b' }], '0.from', 'JSON pointer'],
    [[{ op: 'remove', path: '/a', extra: 1 }], '0.extra', 'not a known property'],
    [['remove /a'], '0', 'must be an object'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(JsonPatchSchema, input, property, fragment);
  });

  it('counts the operations before reading any: a 1 MiB body of junk operations is one issue, and no operation is read', () => {
    // One watched operation, 350,000 times: any look at an operation (a property, a key, `in`) is counted.
    let looks = 0;
    const watched = new Proxy({}, {
      get: (target, key) => { looks += 1; return Reflect.get(target, key); },
      has: (target, key) => { looks += 1; return Reflect.has(target, key); },
      ownKeys: (target) => { looks += 1; return Reflect.ownKeys(target); },
      getOwnPropertyDescriptor: (target, key) => { looks += 1; return Reflect.getOwnPropertyDescriptor(target, key); },
    });
    const result = v.safeParse(JsonPatchSchema, Array.from({ length: 350_000 }, () => watched));
    expect(result.issues?.map((i) => i.message)).toEqual(['must hold at most 100 operations']);
    expect(looks).toBe(0);
    // The same operation within the limit is read (and refused): the count above is of real reads.
    expect(v.safeParse(JsonPatchSchema, [watched]).success).toBe(false);
    expect(looks).toBeGreaterThan(0);
  });
});
