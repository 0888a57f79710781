import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Variant } from '../../src/domain/types.js';
import {
  VariantPatchResultSchema,
  VariantSchema,
  VariantsSchema,
  distributeWeights,
  type VariantsBody,
} from '../../src/schemas/variant.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

const variable = (name: string, weight = 0) => ({ name, weightType: 'variable' as const, weight });
const fix = (name: string, weight: number) => ({ name, weightType: 'fix' as const, weight });

describe('VariantSchema', () => {
  it('applies the defaults of stickiness and overrides', () => {
    expect(parseOk(VariantSchema, variable('blue', 500))).toEqual({
      name: 'blue',
      weightType: 'variable',
      weight: 500,
      stickiness: 'default',
      overrides: [],
    });
  });

  it('keeps payload, stickiness and overrides', () => {
    const input = {
      ...fix('red', 100),
      stickiness: 'userId',
      payload: { type: 'json', value: '{"color":"red"}' },
      overrides: [{ contextName: 'userId', values: ['1', '2'] }],
    };
    expect(parseOk(VariantSchema, input)).toEqual(input);
  });

  it.each(['json', 'csv', 'string', 'number'])('accepts a %s payload', (type) => {
    const value = type === 'json' ? '[1]' : type === 'number' ? '42' : 'a,b';
    expect(parseOk(VariantSchema, { ...variable('a'), payload: { type, value } }).payload).toEqual({ type, value });
  });

  it.each([
    [{ weightType: 'variable', weight: 0 }, 'name', 'is required'],
    [{ ...variable('a b') }, 'name', 'URL-friendly'],
    [{ ...variable('') }, 'name', 'must not be empty'],
    [{ ...variable('../x') }, 'name', 'URL-friendly'],
    [{ name: 'a', weight: 1 }, 'weightType', 'is required'],
    [{ name: 'a', weightType: 'fixed', weight: 1 }, 'weightType', 'must be one of variable, fix'],
    [{ name: 'a', weightType: 'fix' }, 'weight', 'is required'],
    [{ ...fix('a', -1) }, 'weight', 'at least 0'],
    [{ ...fix('a', 1001) }, 'weight', 'at most 1000'],
    [{ ...fix('a', 1.5) }, 'weight', 'must be an integer'],
    [{ name: 'a', weightType: 'fix', weight: '100' }, 'weight', 'must be a number'],
    [{ ...variable('a'), stickiness: 3 }, 'stickiness', 'must be a string'],
    [{ ...variable('a'), payload: { type: 'xml', value: '<a/>' } }, 'payload.type', 'must be one of json'],
    [{ ...variable('a'), payload: { type: 'json', value: '{' } }, 'payload.value', 'valid JSON'],
    [{ ...variable('a'), payload: { type: 'number', value: 'ten' } }, 'payload.value', 'must be a number'],
    [{ ...variable('a'), payload: { type: 'string', value: 5 } }, 'payload.value', 'must be a string'],
    [{ ...variable('a'), payload: { type: 'string' } }, 'payload.value', 'is required'],
    [{ ...variable('a'), payload: { type: 'string', value: 'x'.repeat(10_001) } }, 'payload.value', 'at most 10000'],
    [{ ...variable('a'), payload: { type: 'string', value: 'x', extra: 1 } }, 'payload.extra', 'not a known property'],
    [{ ...variable('a'), overrides: [{ contextName: 'userId' }] }, 'overrides.0.values', 'is required'],
    [{ ...variable('a'), overrides: [{ contextName: 'userId', values: [1] }] }, 'overrides.0.values.0', 'must be a string'],
    [{ ...variable('a'), overrides: {} }, 'overrides', 'must be an array'],
    [{ ...variable('a'), enabled: true }, 'enabled', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(VariantSchema, input, property, fragment);
  });

  it('outputs a domain Variant', () => {
    expectTypeOf<VariantsBody>().toExtend<Variant[]>();
  });
});

describe.each([
  ['VariantsSchema', VariantsSchema],
  ['VariantPatchResultSchema', VariantPatchResultSchema],
] as const)('%s', (_label, schema) => {
  it('accepts an empty list and a valid mix, order kept', () => {
    expect(parseOk(schema, [])).toEqual([]);
    const out = parseOk(schema, [variable('b'), fix('a', 300), variable('c')]);
    expect(out.map((x) => x.name)).toEqual(['b', 'a', 'c']);
  });

  it('refuses duplicate names at the second use', () => {
    expectIssue(schema, [variable('a'), variable('b'), variable('a')], '2.name', 'variant names must be unique');
  });

  it('refuses a non-empty list without a variable variant', () => {
    expectIssue(schema, [fix('a', 100), fix('b', 100)], '', 'at least one variant with weightType "variable"');
  });

  it('refuses fix weights totalling 1000 or more', () => {
    expectIssue(schema, [fix('a', 600), fix('b', 400), variable('c')], '', 'must total less than 1000, got 1000');
    expectIssue(schema, [fix('a', 1000), variable('c')], '', 'must total less than 1000');
  });

  it('accepts fix weights totalling 999', () => {
    expect(parseOk(schema, [fix('a', 999), variable('b')])).toHaveLength(2);
  });

  it('names the bad element of the list', () => {
    expectIssue(schema, [variable('a'), { name: 'b' }], '1.weightType', 'is required');
  });

  it('refuses what is not a list, and over 100 variants', () => {
    expectIssue(schema, { variants: [] }, '', 'must be an array of variants');
    expectIssue(schema, Array.from({ length: 101 }, (_, i) => variable(`v${i}`)), '', 'at most 100 variants');
  });
});

describe('distributeWeights', () => {
  const weights = (list: Parameters<typeof distributeWeights>[0]) => distributeWeights(list).map((x) => x.weight);

  it('splits 1000 over variable variants, remainder to the first ones', () => {
    expect(weights(parseOk(VariantsSchema, [variable('a'), variable('b'), variable('c')]))).toEqual([334, 333, 333]);
    expect(weights(parseOk(VariantsSchema, [variable('a'), variable('b'), variable('c'), variable('d'), variable('e'), variable('f')]))).toEqual([
      167, 167, 167, 167, 166, 166,
    ]);
    expect(weights(parseOk(VariantsSchema, [variable('a', 7)]))).toEqual([1000]);
  });

  it('keeps fix weights and shares the rest', () => {
    expect(weights(parseOk(VariantsSchema, [fix('a', 200), variable('b'), variable('c')]))).toEqual([200, 400, 400]);
    expect(weights(parseOk(VariantsSchema, [variable('a'), fix('b', 333), variable('c')]))).toEqual([334, 333, 333]);
    expect(weights(parseOk(VariantsSchema, [variable('a'), variable('b'), fix('c', 999)]))).toEqual([1, 0, 999]);
  });

  it('ignores the submitted weights of variable variants', () => {
    expect(weights(parseOk(VariantsSchema, [variable('a', 900), variable('b', 100)]))).toEqual([500, 500]);
  });

  it('keeps order and the other fields, and does not mutate its input', () => {
    const input = parseOk(VariantsSchema, [
      { ...variable('x'), payload: { type: 'string', value: 'p' } },
      fix('y', 100),
    ]);
    const snapshot = structuredClone(input);
    const out = distributeWeights(input);
    expect(input).toEqual(snapshot);
    expect(out).toEqual([
      { name: 'x', weightType: 'variable', weight: 900, stickiness: 'default', overrides: [], payload: { type: 'string', value: 'p' } },
      { name: 'y', weightType: 'fix', weight: 100, stickiness: 'default', overrides: [] },
    ]);
  });

  it('always totals 1000 when the list is valid', () => {
    for (let n = 1; n <= 7; n += 1) {
      for (const fixWeight of [0, 1, 499, 998]) {
        const list = [fix('f', fixWeight), ...Array.from({ length: n }, (_, i) => variable(`v${i}`))];
        expect(weights(parseOk(VariantsSchema, list)).reduce((a, b) => a + b, 0)).toBe(1000);
      }
    }
  });

  it('returns an empty list for an empty list', () => {
    expect(distributeWeights([])).toEqual([]);
  });
});
