/**
 * Contexts and definitions an attacker or a bug could send: huge values,
 * prototype keys, values of the wrong type or format. The answer is a plain
 * false (or the inverted constraint's true), never an exception, and never
 * something read from `Object.prototype`.
 */
import { describe, expect, test } from 'vitest';
import { compileFlag, evaluate, explain, type ConstraintDefinition, type EvaluationContext, type StrategyDefinition } from '../../src/domain/evaluation/index.js';

const noSegments = () => undefined;

function flagWith(strategy: StrategyDefinition) {
  return compileFlag({ name: 'hostile', enabled: true, strategies: [strategy] }, noSegments);
}

function constrained(constraint: ConstraintDefinition) {
  return flagWith({ name: 'default', constraints: [constraint] });
}

/** Both paths, so neither can throw where the other does not. */
function enabled(flag: ReturnType<typeof flagWith>, context: EvaluationContext): boolean {
  const fast = evaluate(flag, context).enabled;
  expect(explain(flag, context).isEnabled).toBe(fast);
  return fast;
}

/**
 * Each operator, and what it answers for a userId of a million `u`s against the values `u` and `x` (or the
 * value `1`, `1.0.0` for semver): the strings match as strings do, a number or a version it is not, and the
 * date operators compare the current time, whatever the userId. How long it takes is the benchmark's concern.
 */
const OPERATORS = [
  ['IN', false], ['NOT_IN', true], ['STR_ENDS_WITH', true], ['STR_STARTS_WITH', true], ['STR_CONTAINS', true],
  ['NUM_EQ', false], ['NUM_GT', false], ['NUM_GTE', false], ['NUM_LT', false], ['NUM_LTE', false],
  ['DATE_AFTER', true], ['DATE_BEFORE', false], ['SEMVER_EQ', false], ['SEMVER_GT', false], ['SEMVER_LT', false],
] as const;

describe('a 1 MB userId', () => {
  const huge = 'u'.repeat(1024 * 1024);

  test.each(OPERATORS)('%s on it answers %s, without throwing', (operator, answer) => {
    const flag = constrained({ contextName: 'userId', operator, values: ['u', 'x'], value: operator.startsWith('SEMVER') ? '1.0.0' : '1' });
    expect(enabled(flag, { userId: huge })).toBe(answer);
  });

  test('rollouts, userWithId and variants hash it', () => {
    const flag = compileFlag(
      {
        name: 'big',
        enabled: true,
        strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'g' } }],
        variants: [{ name: 'a', weight: 1 }, { name: 'b', weight: 1 }],
      },
      noSegments,
    );
    expect(evaluate(flag, { userId: huge }).enabled).toBe(true);
    expect(enabled(flagWith({ name: 'userWithId', parameters: { userIds: 'a,b' } }), { userId: huge })).toBe(false);
    expect(enabled(flagWith({ name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8' } }), { remoteAddress: huge })).toBe(false);
  });
});

describe('prototype keys', () => {
  test('__proto__ as a property name is an ordinary own property', () => {
    const context = JSON.parse('{"properties": {"__proto__": "x"}}') as EvaluationContext;
    expect(enabled(constrained({ contextName: '__proto__', operator: 'IN', values: ['x'] }), context)).toBe(true);
    expect(enabled(constrained({ contextName: '__proto__', operator: 'IN', values: ['x'] }), { properties: {} })).toBe(false);
  });

  test('__proto__ as a top-level context key is read like any other key', () => {
    const context = JSON.parse('{"__proto__": "top"}') as EvaluationContext;
    expect(enabled(constrained({ contextName: '__proto__', operator: 'STR_STARTS_WITH', values: ['to'] }), context)).toBe(true);
  });

  test.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])('%s is missing unless the context has it', (key) => {
    const flag = constrained({ contextName: key, operator: 'STR_CONTAINS', values: ['function', 'object', 'Object'] });
    expect(enabled(flag, { userId: '1', properties: { plan: 'pro' } })).toBe(false);
    expect(enabled(constrained({ contextName: key, operator: 'NOT_IN', values: ['x'] }), {})).toBe(true);
  });

  test('a prototype key as custom stickiness is a missing field, so the rollout is false', () => {
    const flag = flagWith({ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'constructor', groupId: 'g' } });
    expect(enabled(flag, { userId: '1' })).toBe(false);
  });

  test('prototype keys in strategy parameters and flag variants overrides are not inherited', () => {
    const parameters = JSON.parse('{"__proto__": {"userIds": "1"}}') as Record<string, string>;
    expect(enabled(flagWith({ name: 'userWithId', parameters }), { userId: '1' })).toBe(false);
    expect(enabled(flagWith({ name: 'toString' }), {})).toBe(false);
  });
});

describe('values of the wrong format in the context are false, not exceptions', () => {
  const cases: [ConstraintDefinition, EvaluationContext][] = [
    [{ contextName: 'v', operator: 'SEMVER_EQ', value: '1.0.0' }, { properties: { v: 'not-a-version' } }],
    [{ contextName: 'v', operator: 'SEMVER_GT', value: '1.0.0' }, { properties: { v: 'v2.0.0' } }],
    [{ contextName: 'v', operator: 'SEMVER_LT', value: '1.0.0' }, { properties: { v: '' } }],
    [{ contextName: 'n', operator: 'NUM_GT', value: '1' }, { properties: { n: 'twelve' } }],
    [{ contextName: 'n', operator: 'NUM_EQ', value: '1' }, { properties: { n: 'NaN' } }],
    [{ contextName: 'x', operator: 'DATE_AFTER', value: '2020-01-01T00:00:00Z' }, { currentTime: 'yesterday-ish' }],
    [{ contextName: 'x', operator: 'DATE_BEFORE', value: '2999-01-01T00:00:00Z' }, { currentTime: new Date(Number.NaN) }],
  ];

  test.each(cases)('%o with %o', (constraint, context) => {
    expect(enabled(constrained(constraint), context)).toBe(false);
    expect(enabled(constrained({ ...constraint, inverted: true }), context)).toBe(true);
  });

  test('non-scalar or exotic context values read as missing', () => {
    const contexts = [
      { userId: { toString: 1 } },
      { userId: ['a', 'b'] },
      { properties: { plan: { nested: true } } },
      { properties: null },
      { properties: 'plan=pro' },
      { currentTime: { toISOString: 1 } },
      Object.create(null) as object,
    ] as unknown as EvaluationContext[];
    for (const [operator] of OPERATORS) {
      for (const contextName of ['userId', 'plan', 'currentTime']) {
        const flag = constrained({ contextName, operator, values: ['a'], value: '1' });
        for (const context of contexts) expect(typeof enabled(flag, context)).toBe('boolean');
      }
    }
  });
});

describe('definitions of the wrong format compile to false, not exceptions', () => {
  test.each([
    { contextName: 'n', operator: 'NUM_EQ', value: 'abc' },
    { contextName: 'd', operator: 'DATE_AFTER', value: 'not a date' },
    { contextName: 's', operator: 'SEMVER_EQ', value: 'one' },
    { contextName: 's', operator: 'SEMVER_EQ' },
    { contextName: 'i', operator: 'IN' },
    { contextName: 'i', operator: 'IN_CIDR', values: ['nope', '10.0.0.0/99'] },
    { contextName: 'i', operator: 'REGEX', value: '(' },
    { contextName: 'i', operator: 'NOT_A_VALID_OPERATOR', values: ['x'] },
  ] satisfies ConstraintDefinition[])('%o', (constraint) => {
    const flag = constrained(constraint);
    expect(enabled(flag, { userId: '1', properties: { n: '1', d: '2020', s: '1.0.0', i: '10.0.0.1' } })).toBe(false);
  });

  test('rollout parameters that are not numbers, and variant weights that sum to zero', () => {
    expect(enabled(flagWith({ name: 'flexibleRollout', parameters: { rollout: 'lots', groupId: 'g' } }), { userId: '1' })).toBe(false);
    expect(enabled(flagWith({ name: 'gradualRolloutUserId', parameters: {} }), { userId: '1' })).toBe(false);
    const zero = compileFlag({ name: 'z', enabled: true, strategies: [], variants: [{ name: 'a', weight: 0 }] }, noSegments);
    expect(evaluate(zero, { userId: '1' }).variant).toEqual({ name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true });
  });
});
