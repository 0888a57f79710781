/**
 * The playground's explanation: the Unleash 6.10 shape (strategies with their
 * result and evaluation status, constraints echoed with a result, segments
 * with theirs), `unknown` where the engine cannot evaluate a strategy.
 */
import { describe, expect, test } from 'vitest';
import { compileFlag, evaluate, explain, type FlagDefinition, type SegmentDefinition } from '../../src/domain/evaluation/index.js';

const segments: SegmentDefinition[] = [
  { id: 1, name: 'beta-testers', constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] },
];
const lookup = (id: number) => segments.find((s) => s.id === id);

const definition: FlagDefinition = {
  name: 'explained',
  enabled: true,
  strategies: [
    { id: 's-off', name: 'default', title: 'Off for now', disabled: true },
    { id: 's-custom', name: 'myCustomStrategy', parameters: { k: 'v' }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] },
    { id: 's-host', name: 'applicationHostname', parameters: { hostNames: 'web-1' } },
    {
      id: 's-seg',
      name: 'flexibleRollout',
      title: null,
      parameters: { rollout: '100', stickiness: 'default', groupId: 'explained' },
      constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['blocked'], caseInsensitive: false, inverted: false }],
      segments: [1],
      variants: [{ name: 'sv', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'hi' } }],
    },
  ],
  variants: [{ name: 'fv', weight: 1000 }],
};

describe('explain', () => {
  const flag = compileFlag(definition, lookup);

  test('a matching context: the first true strategy decides, with its variant', () => {
    const result = explain(flag, { userId: '1', properties: { plan: 'beta' } });
    expect(result).toMatchObject({ name: 'explained', isEnabled: true, isEnabledInCurrentEnvironment: true, hasUnsatisfiedDependency: false });
    expect(result.strategies.result).toBe(true);
    expect(result.variant).toEqual({ name: 'sv', enabled: true, payload: { type: 'string', value: 'hi' }, feature_enabled: true, featureEnabled: true });
    expect(result.variants).toEqual(definition.strategies[3]?.variants);
    const [off, custom, host, seg] = result.strategies.data;
    expect(off).toEqual({
      id: 's-off', name: 'default', title: 'Off for now', disabled: true, parameters: {},
      result: { enabled: 'unknown', evaluationStatus: 'unevaluated' }, constraints: [], segments: [],
    });
    expect(custom?.result).toEqual({ enabled: 'unknown', evaluationStatus: 'incomplete' });
    expect(custom?.constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['1'], result: true }]);
    expect(custom?.parameters).toEqual({ k: 'v' });
    expect(host?.result).toEqual({ enabled: 'unknown', evaluationStatus: 'incomplete' });
    expect(seg).toEqual({
      id: 's-seg', name: 'flexibleRollout', disabled: false,
      parameters: { rollout: '100', stickiness: 'default', groupId: 'explained' },
      result: {
        enabled: true, evaluationStatus: 'complete',
        variant: { name: 'sv', enabled: true, payload: { type: 'string', value: 'hi' } },
        variants: definition.strategies[3]?.variants,
      },
      constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['blocked'], caseInsensitive: false, inverted: false, result: true }],
      segments: [{ id: 1, name: 'beta-testers', result: true, constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'], result: true }] }],
    });
  });

  test('no strategy true but one unknown: result unknown, flag off, disabled variant', () => {
    const result = explain(flag, { userId: '1', properties: { plan: 'ga' } });
    expect(result.strategies.result).toBe('unknown');
    expect(result.isEnabled).toBe(false);
    expect(result.variant).toEqual({ name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false });
    expect(result.variants).toEqual(definition.variants);
    expect(result.strategies.data[3]?.segments[0]?.result).toBe(false);
    expect(result.strategies.data[3]?.result).toEqual({ enabled: false, evaluationStatus: 'complete' });
  });

  test('an unknown strategy whose constraints fail is false, not unknown', () => {
    const only = compileFlag({ name: 'c', enabled: true, strategies: [definition.strategies[1]!] }, lookup);
    const result = explain(only, { userId: '2' });
    expect(result.strategies).toEqual({
      result: false,
      data: [expect.objectContaining({ result: { enabled: false, evaluationStatus: 'incomplete' } })],
    });
  });

  test('applicationHostname is evaluated when the host name is given', () => {
    const only = { name: 'h', enabled: true, strategies: [definition.strategies[2]!] };
    const onWeb1 = compileFlag(only, lookup, { hostname: 'WEB-1' });
    expect(explain(onWeb1, {}).strategies.data[0]?.result).toEqual({ enabled: true, evaluationStatus: 'complete' });
    expect(evaluate(onWeb1, {}).enabled).toBe(true);
    expect(evaluate(compileFlag(only, lookup, { hostname: 'web-2' }), {}).enabled).toBe(false);
    expect(evaluate(compileFlag(only, lookup), {}).enabled).toBe(false);
  });

  test('a segment the lookup does not know is shown false and fails its strategy', () => {
    const missing = compileFlag({ name: 'm', enabled: true, strategies: [{ id: 's', name: 'default', segments: [404] }] }, lookup);
    const result = explain(missing, {});
    expect(result.strategies.data[0]?.segments).toEqual([{ id: 404, name: '', result: false, constraints: [] }]);
    expect(result.isEnabled).toBe(false);
    expect(evaluate(missing, {}).enabled).toBe(false);
  });

  test('a flag off in the environment: strategies still explained, isEnabled false', () => {
    const off = compileFlag({ ...definition, enabled: false }, lookup);
    const result = explain(off, { userId: '1', properties: { plan: 'beta' } });
    expect(result).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: false, strategies: { result: true } });
    expect(result.variant.feature_enabled).toBe(false);
  });

  test('only disabled strategies: on for everyone when the flag is on, as the SDK sees an empty list', () => {
    const onlyOff = compileFlag({ name: 'o', enabled: true, strategies: [definition.strategies[0]!] }, lookup);
    expect(explain(onlyOff, {}).strategies.result).toBe(true);
    expect(explain(onlyOff, {}).isEnabled).toBe(evaluate(onlyOff, {}).enabled);
  });

  test('an unsatisfied dependency is reported and turns the flag off', () => {
    const parent = compileFlag({ name: 'parent', enabled: false, strategies: [{ name: 'default' }] }, lookup);
    const child = compileFlag({ name: 'child', enabled: true, strategies: [{ name: 'default' }], dependencies: [{ feature: 'parent' }] }, lookup);
    const flags = new Map([['parent', parent], ['child', child]]);
    expect(explain(child, {}, flags)).toMatchObject({ hasUnsatisfiedDependency: true, isEnabled: false, strategies: { result: true } });
    expect(evaluate(child, {}, flags).enabled).toBe(false);
    expect(evaluate(child, {}).enabled).toBe(false);
  });
});
