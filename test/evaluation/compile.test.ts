/**
 * Compile once, evaluate many: after `compileFlag`, evaluation never reads the
 * definition again (proven by a proxy that counts reads), answers are shared
 * frozen objects, and a stored flag compiles as the client API would serve it.
 */
import { describe, expect, test } from 'vitest';
import { compileFlag, evaluate, explain, flagDefinition, type FlagDefinition, type SegmentDefinition } from '../../src/domain/evaluation/index.js';
import type { Flag, Strategy } from '../../src/domain/types.js';

/** Wraps `value` so every property read anywhere inside it is counted. */
function counted<T extends object>(value: T, reads: { count: number }): T {
  return new Proxy(value, {
    get(target, key, receiver) {
      reads.count += 1;
      const inner = Reflect.get(target, key, receiver) as unknown;
      return inner !== null && typeof inner === 'object' ? counted(inner, reads) : inner;
    },
  });
}

const definition: FlagDefinition = {
  name: 'checkout',
  enabled: true,
  strategies: [
    {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' },
      constraints: [
        { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.2.0' },
        { contextName: 'plan', operator: 'IN', values: ['pro', 'team'] },
        { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@EXAMPLE.com'], caseInsensitive: true },
        { contextName: 'seats', operator: 'NUM_GTE', value: '5' },
        { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2020-01-01T00:00:00.000Z' },
      ],
      segments: [1],
      variants: [{ name: 'fast', weight: 500, stickiness: 'default' }, { name: 'slow', weight: 500, stickiness: 'default' }],
    },
    { name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8, 192.168.1.1' } },
  ],
  variants: [{ name: 'flag-level', weight: 1000, stickiness: 'default', overrides: [{ contextName: 'userId', values: ['vip'] }] }],
};

const segment: SegmentDefinition = { id: 1, name: 'eu', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] };

describe('compileFlag', () => {
  test('evaluating 1000 times reads nothing of the definition', () => {
    const reads = { count: 0 };
    const flag = compileFlag(counted(definition, reads), (id) => (id === 1 ? counted(segment, reads) : undefined));
    const compileReads = reads.count;
    expect(compileReads).toBeGreaterThan(0);
    let enabled = 0;
    for (let i = 0; i < 1000; i++) {
      const context = {
        userId: `user-${i}`,
        remoteAddress: i % 3 === 0 ? '10.1.2.3' : '8.8.8.8',
        properties: { appVersion: '1.3.0', plan: i % 2 ? 'pro' : 'free', email: 'a@example.COM', seats: '7', region: 'eu' },
      };
      if (evaluate(flag, context).enabled) enabled += 1;
    }
    expect(reads.count).toBe(compileReads);
    // Roughly half pass the plan check, about half of those the 50 % rollout, and a third of the rest come in by address.
    expect(enabled).toBeGreaterThan(300);
    expect(enabled).toBeLessThan(700);
  });

  test('answers are frozen objects built at compile time, the same object for the same variant', () => {
    const flag = compileFlag(definition, (id) => (id === 1 ? segment : undefined));
    const context = { userId: 'vip', remoteAddress: '10.0.0.1' };
    const first = evaluate(flag, context);
    expect(first).toEqual({ enabled: true, variant: { name: 'flag-level', enabled: true, feature_enabled: true, featureEnabled: true } });
    expect(evaluate(flag, context)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.variant)).toBe(true);
    expect(evaluate(flag, { remoteAddress: '8.8.8.8' })).toBe(evaluate(flag, { remoteAddress: '1.1.1.1' }));
  });

  test('a variant without payload has no payload key; one with a payload gets a frozen copy', () => {
    const flag = compileFlag(
      { name: 'f', enabled: true, strategies: [], variants: [{ name: 'p', weight: 1, payload: { type: 'json', value: '{"a":1}' } }] },
      () => undefined,
    );
    const { variant } = evaluate(flag, { userId: '1' });
    expect(variant.payload).toEqual({ type: 'json', value: '{"a":1}' });
    expect(Object.isFrozen(variant.payload)).toBe(true);
    expect('payload' in evaluate(compileFlag({ name: 'g', enabled: true, strategies: [] }, () => undefined), {}).variant).toBe(false);
  });
});

describe('flagDefinition (stored flag → engine input)', () => {
  const strategy = (id: string, sortOrder: number, extra: Partial<Strategy>): Strategy => ({
    id, name: 'default', title: null, disabled: false, sortOrder, constraints: [], parameters: {}, variants: [], segments: [], ...extra,
  });
  const flag: Flag = {
    name: 'stored', description: '', type: 'release', stale: false, impressionData: true, createdAt: '', lastSeenAt: null,
    archived: false, archivedAt: null, version: 3,
    variants: [{ name: 'v', weightType: 'variable', weight: 1000, stickiness: 'default', overrides: [] }],
    environments: {
      production: {
        enabled: true,
        strategies: [
          strategy('late', 2, {}),
          strategy('off', 0, { disabled: true }),
          strategy('first', 1, {
            name: 'userWithId', parameters: { userIds: 'alice' },
            variants: [{ name: 'sv', weight: 1000, weightType: 'variable', stickiness: 'default' }],
          }),
        ],
      },
      development: { enabled: false, strategies: [strategy('d', 0, {})] },
    },
  };

  test('strategies in sortOrder, disabled ones listed but not evaluated', () => {
    const compiled = compileFlag(flagDefinition(flag, 'production'), () => undefined);
    expect(compiled.strategies.map((s) => s.definition.id)).toEqual(['off', 'first', 'late']);
    expect(compiled.active.map((s) => s.definition.id)).toEqual(['first', 'late']);
    expect(compiled.impressionData).toBe(true);
    expect(evaluate(compiled, { userId: 'alice' }).variant.name).toBe('sv');
    expect(evaluate(compiled, { userId: 'bob' }).variant.name).toBe('v');
    expect(explain(compiled, { userId: 'bob' }).strategies.data[0]?.result).toEqual({ enabled: 'unknown', evaluationStatus: 'unevaluated' });
  });

  test('an environment that is off, or that the flag has no entry for, evaluates off', () => {
    expect(evaluate(compileFlag(flagDefinition(flag, 'development'), () => undefined), {}).enabled).toBe(false);
    expect(evaluate(compileFlag(flagDefinition(flag, 'staging'), () => undefined), {}).enabled).toBe(false);
    expect(evaluate(compileFlag(flagDefinition(flag, '__proto__'), () => undefined), {}).enabled).toBe(false);
  });
});
