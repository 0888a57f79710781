import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Strategy, StrategyInput } from '../../src/domain/types.js';
import {
  StrategyRecordSchema,
  StrategySchema,
  type StrategyBody,
  type StrategyRecord,
} from '../../src/schemas/strategy.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

const inConstraint = { contextName: 'userId', operator: 'IN', values: ['1'] };

describe('StrategySchema', () => {
  it('takes a bare name and adds nothing: defaults are the domain\'s', () => {
    expect(parseOk(StrategySchema, { name: 'default' })).toEqual({ name: 'default' });
  });

  it.each(['default', 'flexibleRollout', 'userWithId', 'remoteAddress', 'applicationHostname', 'gradualRolloutRandom', 'myCustomStrategy'])('takes the name %s (the definitions are checked in the mailbox)', (name) => {
    expect(parseOk(StrategySchema, { name }).name).toBe(name);
  });

  it('parses a full body, constraints with their defaults, parameters as strings', () => {
    const out = parseOk(StrategySchema, {
      name: 'flexibleRollout',
      title: 'Half',
      disabled: false,
      sortOrder: 2,
      constraints: [inConstraint],
      parameters: { rollout: 50, groupId: 'checkout', stickiness: 'default', flag: true },
      variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'x' } }],
      segments: [1, 2],
    });
    expect(out).toEqual({
      name: 'flexibleRollout',
      title: 'Half',
      disabled: false,
      sortOrder: 2,
      constraints: [{ ...inConstraint, caseInsensitive: false, inverted: false }],
      parameters: { rollout: '50', groupId: 'checkout', stickiness: 'default', flag: 'true' },
      variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'x' } }],
      segments: [1, 2],
    });
  });

  it('holds strategy variants to the flag variant rules: a variable one, fix total below 1000', () => {
    expectIssue(StrategySchema, { name: 'default', variants: [{ name: 'a', weight: 500, weightType: 'fix' }] }, 'variants', 'at least one variant with weightType "variable"');
    expectIssue(StrategySchema, { name: 'default', variants: [{ name: 'a', weight: 1000, weightType: 'fix' }, { name: 'b', weight: 0, weightType: 'variable' }] }, 'variants', 'must total less than 1000, got 1000');
    expect(parseOk(StrategySchema, { name: 'default', variants: [] }).variants).toEqual([]);
  });

  it('accepts and drops an echoed id', () => {
    expect(parseOk(StrategySchema, { id: '6c1f3c1e-0000-4000-8000-000000000000', name: 'default' })).toEqual({ name: 'default' });
  });

  it('accepts null title, disabled and parameters', () => {
    expect(parseOk(StrategySchema, { name: 'default', title: null, disabled: null, parameters: null })).toEqual({
      name: 'default',
      title: null,
      disabled: null,
    });
  });

  it('defaults the stickiness of a strategy variant', () => {
    const out = parseOk(StrategySchema, { name: 'default', variants: [{ name: 'a', weight: 500, weightType: 'fix' }, { name: 'b', weight: 0, weightType: 'variable' }] });
    expect(out.variants).toEqual([{ name: 'a', weight: 500, weightType: 'fix', stickiness: 'default' }, { name: 'b', weight: 0, weightType: 'variable', stickiness: 'default' }]);
  });

  it.each([['50', '50'], [50, '50'], [0, '0'], ['100', '100']])('accepts rollout %j as %j', (rollout, out) => {
    expect(parseOk(StrategySchema, { name: 'flexibleRollout', parameters: { rollout } }).parameters).toEqual({ rollout: out });
  });

  it.each([101, -1, 50.5, '50.5', 'half', '', ' 50', true])('refuses rollout %j', (rollout) => {
    expectIssue(StrategySchema, { name: 'flexibleRollout', parameters: { rollout } }, 'parameters.rollout', '0 to 100');
  });

  it('leaves rollout of other strategies alone', () => {
    expect(parseOk(StrategySchema, { name: 'default', parameters: { rollout: 'half' } }).parameters).toEqual({ rollout: 'half' });
  });

  it.each([
    [{}, 'name', 'is required'],
    // Whether a definition has the name is the project mailbox's to decide (test/http/definitions); the shape is checked here.
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 'x'.repeat(101) }, 'name', 'at most 100'],
    [{ name: '__proto__' }, 'name', 'must not be "__proto__"'],
    [{ name: 5 }, 'name', 'must be a string'],
    [{ name: 'default', title: 'x'.repeat(101) }, 'title', 'at most 100'],
    [{ name: 'default', title: 3 }, 'title', 'must be a string'],
    [{ name: 'default', disabled: 'no' }, 'disabled', 'must be a boolean'],
    [{ name: 'default', sortOrder: 1.5 }, 'sortOrder', 'must be an integer'],
    [{ name: 'default', sortOrder: '1' }, 'sortOrder', 'must be a number'],
    [{ name: 'default', constraints: {} }, 'constraints', 'must be an array of constraints'],
    [{ name: 'default', constraints: [{ contextName: 'u', operator: 'IN', values: [] }] }, 'constraints.0.values', 'non-empty value'],
    [{ name: 'default', constraints: [{ contextName: 'u', operator: 'NUM_GT', value: 'x' }] }, 'constraints.0.value', 'needs a number'],
    [{ name: 'default', constraints: Array.from({ length: 101 }, () => inConstraint) }, 'constraints', 'at most 100'],
    [{ name: 'default', parameters: [] }, 'parameters', 'must be an object of string values, got Array'],
    [{ name: 'default', parameters: ['50'] }, 'parameters', 'must be an object'],
    [{ name: 'default', parameters: 'rollout=5' }, 'parameters', 'must be an object'],
    [{ name: 'default', parameters: { a: {} } }, 'parameters.a', 'must be a string, number or boolean'],
    [{ name: 'default', parameters: { a: null } }, 'parameters.a', 'must be a string, number or boolean'],
    [{ name: 'default', parameters: { a: 'x'.repeat(10_001) } }, 'parameters.a', 'at most 10000'],
    [{ name: 'default', parameters: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])) }, 'parameters', 'at most 100 parameters'],
    [{ name: 'default', variants: [{ name: 'a', weight: 1001, weightType: 'fix' }] }, 'variants.0.weight', 'at most 1000'],
    [{ name: 'default', variants: [{ name: 'a', weight: 1, weightType: 'heavy' }] }, 'variants.0.weightType', 'must be one of'],
    [{ name: 'default', variants: [{ name: 'a', weight: 1, weightType: 'fix', overrides: [] }] }, 'variants.0.overrides', 'not a known property'],
    [{ name: 'default', variants: [{ name: 'a', weight: 1, weightType: 'fix' }, { name: 'a', weight: 1, weightType: 'fix' }] }, 'variants.1.name', 'unique'],
    [{ name: 'default', segments: [1, -2] }, 'segments.1', 'at least 0'],
    [{ name: 'default', segments: ['1'] }, 'segments.0', 'must be a number'],
    [{ name: 'default', enabled: true }, 'enabled', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(StrategySchema, input, property, fragment);
  });

  it('outputs a StrategyInput without id', () => {
    expectTypeOf<StrategyBody>().toExtend<StrategyInput>();
    expectTypeOf<StrategyBody>().not.toHaveProperty('id');
  });
});

describe('StrategyRecordSchema', () => {
  const record = {
    id: 'abc',
    name: 'flexibleRollout',
    title: null,
    disabled: false,
    sortOrder: 0,
    constraints: [],
    parameters: { rollout: '100', stickiness: 'default', groupId: 'f' },
    variants: [],
    segments: [],
  };

  it('round-trips a stored strategy', () => {
    expect(parseOk(StrategyRecordSchema, record)).toEqual(record);
  });

  it('accepts a number written at /parameters/rollout, stored as a string', () => {
    expect(parseOk(StrategyRecordSchema, { ...record, parameters: { ...record.parameters, rollout: 25 } }).parameters.rollout).toBe('25');
  });

  it('fills removed optional fields with their defaults', () => {
    expect(parseOk(StrategyRecordSchema, { id: 'abc', name: 'default', sortOrder: 3 })).toEqual({
      id: 'abc',
      name: 'default',
      title: null,
      disabled: false,
      sortOrder: 3,
      constraints: [],
      parameters: {},
      variants: [],
      segments: [],
    });
  });

  it.each([
    [{ ...record, id: undefined }, 'id', 'is required'],
    [{ ...record, id: 5 }, 'id', 'must be a string'],
    [{ ...record, sortOrder: undefined }, 'sortOrder', 'is required'],
    [{ ...record, name: '' }, 'name', 'must not be empty'],
    [{ ...record, parameters: { rollout: '150' } }, 'parameters.rollout', '0 to 100'],
    [{ ...record, featureName: 'f' }, 'featureName', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(StrategyRecordSchema, JSON.parse(JSON.stringify(input)), property, fragment);
  });

  it('outputs a full Strategy', () => {
    expectTypeOf<StrategyRecord>().toExtend<Strategy>();
  });
});

describe('StrategySchema parameters with prototype keys', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses a parameter named %s instead of dropping it', (key) => {
    expectIssue(StrategySchema, JSON.parse(`{"name":"default","parameters":{"${key}":"x","ok":"1"}}`), 'parameters', 'must not have');
  });
});
