import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FlagType } from '../../src/domain/types.js';
import {
  BatchFeaturesSchema,
  CloneFeatureSchema,
  CreateFeatureSchema,
  FeatureRecordSchema,
  ReviveSchema,
  UpdateFeatureSchema,
  type CreateFeature,
  type UpdateFeature,
} from '../../src/schemas/feature.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

describe('CreateFeatureSchema', () => {
  it('applies the defaults', () => {
    expect(parseOk(CreateFeatureSchema, { name: 'checkout' })).toEqual({
      name: 'checkout',
      description: '',
      type: 'release',
      impressionData: false,
    });
  });

  it('keeps given values, and reads a null description as empty', () => {
    expect(
      parseOk(CreateFeatureSchema, { name: 'k', description: 'why', type: 'kill-switch', impressionData: true }),
    ).toEqual({ name: 'k', description: 'why', type: 'kill-switch', impressionData: true });
    expect(parseOk(CreateFeatureSchema, { name: 'k', description: null }).description).toBe('');
  });

  it.each(['release', 'experiment', 'operational', 'kill-switch', 'permission', 'sunset'])('accepts type %s', (type) => {
    expect(parseOk(CreateFeatureSchema, { name: 'a', type }).type).toBe(type);
  });

  it.each([
    [{}, 'name', 'is required'],
    [{ name: 'a b' }, 'name', 'URL-friendly'],
    [{ name: '../x' }, 'name', 'URL-friendly'],
    [{ name: '%' }, 'name', 'URL-friendly'],
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: '.' }, 'name', 'URL-friendly'],
    [{ name: 'x'.repeat(101) }, 'name', 'at most 100'],
    [{ name: 5 }, 'name', 'must be a string'],
    [{ name: 'a', type: 'bogus' }, 'type', 'must be one of release'],
    [{ name: 'a', type: 'Release' }, 'type', 'must be one of'],
    [{ name: 'a', description: 'x'.repeat(10_001) }, 'description', 'at most 10000'],
    [{ name: 'a', description: 1 }, 'description', 'must be a string'],
    [{ name: 'a', impressionData: 'true' }, 'impressionData', 'must be a boolean'],
    [{ name: 'a', stale: true }, 'stale', 'not a known property'],
    [{ name: 'a', project: 'default' }, 'project', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CreateFeatureSchema, input, property, fragment);
  });

  it('refuses a body that is not an object', () => {
    expectIssue(CreateFeatureSchema, 'checkout', '', 'must be an object');
    expectIssue(CreateFeatureSchema, null, '', 'must be an object');
    expectIssue(CreateFeatureSchema, [], 'name', 'is required');
  });

  it('refuses a __proto__ key as unknown', () => {
    expectIssue(CreateFeatureSchema, JSON.parse('{"name":"a","__proto__":{"admin":true}}'), '__proto__', 'not a known property');
  });

  it('outputs the domain flag type', () => {
    expectTypeOf<CreateFeature['type']>().toEqualTypeOf<FlagType>();
  });
});

describe.each([
  ['UpdateFeatureSchema', UpdateFeatureSchema],
  ['FeatureRecordSchema', FeatureRecordSchema],
] as const)('%s', (_label, schema) => {
  it('resets omitted fields to their defaults', () => {
    expect(parseOk(schema, { name: 'a' })).toEqual({
      name: 'a',
      description: '',
      type: 'release',
      stale: false,
      impressionData: false,
    });
  });

  it('takes stale and the other metadata', () => {
    expect(
      parseOk(schema, { name: 'a', description: 'd', type: 'operational', stale: true, impressionData: true }),
    ).toEqual({ name: 'a', description: 'd', type: 'operational', stale: true, impressionData: true });
  });

  it('accepts and drops the read-only fields of a flag record', () => {
    const record = {
      name: 'a',
      description: 'd',
      type: 'release',
      stale: false,
      impressionData: false,
      project: 'default',
      createdAt: '2024-01-01T00:00:00.000Z',
      lastSeenAt: null,
      archived: false,
      archivedAt: null,
      environments: [{ name: 'dev', enabled: true, strategies: [] }],
      variants: null,
      favorite: false,
      enabled: true,
    };
    expect(parseOk(schema, record)).toEqual({
      name: 'a',
      description: 'd',
      type: 'release',
      stale: false,
      impressionData: false,
    });
  });

  it.each([
    [{}, 'name', 'is required'],
    [{ name: 'a b' }, 'name', 'URL-friendly'],
    [{ name: 'a', stale: 'yes' }, 'stale', 'must be a boolean'],
    [{ name: 'a', type: 'bogus' }, 'type', 'must be one of'],
    [{ name: 'a', version: 3 }, 'version', 'not a known property'],
    [{ name: 'a', strategies: [] }, 'strategies', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(schema, input, property, fragment);
  });

  it('outputs exactly the fields a PUT replaces', () => {
    expectTypeOf<UpdateFeature>().toEqualTypeOf<{
      name: string;
      description: string;
      type: FlagType;
      stale: boolean;
      impressionData: boolean;
    }>();
  });
});

describe('CloneFeatureSchema', () => {
  it('takes the new name; replaceGroupId defaults to true', () => {
    expect(parseOk(CloneFeatureSchema, { name: 'copy' })).toEqual({ name: 'copy', replaceGroupId: true });
    expect(parseOk(CloneFeatureSchema, { name: 'copy', replaceGroupId: false })).toEqual({ name: 'copy', replaceGroupId: false });
  });
  it.each([
    [{}, 'name', 'is required'],
    [{ name: 'a b' }, 'name', 'URL-friendly'],
    [{ name: 'a', replaceGroupId: 1 }, 'replaceGroupId', 'must be a boolean'],
    [{ name: 'a', description: 'x' }, 'description', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CloneFeatureSchema, input, property, fragment);
  });
});

describe.each([
  ['BatchFeaturesSchema', BatchFeaturesSchema],
  ['ReviveSchema', ReviveSchema],
] as const)('%s', (_label, schema) => {
  it('takes a list of names, empty included', () => {
    expect(parseOk(schema, { features: ['a', 'b'] })).toEqual({ features: ['a', 'b'] });
    expect(parseOk(schema, { features: [] })).toEqual({ features: [] });
  });
  it.each([
    [{}, 'features', 'is required'],
    [{ features: 'a' }, 'features', 'must be an array'],
    [{ features: [1] }, 'features.0', 'must be a string'],
    [{ features: ['a', ''] }, 'features.1', 'must not be empty'],
    [{ features: ['x'.repeat(101)] }, 'features.0', 'at most 100'],
    [{ features: Array.from({ length: 1001 }, (_, i) => `f${i}`) }, 'features', 'at most 1000'],
    [{ features: [], extra: true }, 'extra', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(schema, input, property, fragment);
  });
  it('refuses a bare array', () => {
    expectIssue(schema, ['a'], 'features', 'is required');
  });
});
