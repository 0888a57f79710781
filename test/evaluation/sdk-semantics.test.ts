/**
 * Corners the specification vectors do not reach, where the engine follows
 * the Node SDK 6.12 on purpose (CLIENT-API: a user gets the same answer from
 * flagpole's frontend API as from a Node SDK). Each flag below is evaluated by
 * the real SDK and by the engine over the same contexts; a few decisions are
 * also spelled out as plain expectations.
 */
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { compileFlags, evaluate, type EvaluationContext } from '../../src/domain/evaluation/index.js';
import { adaptState, type SpecFeature } from './client-spec.js';

const require = createRequire(import.meta.url);
type SdkClient = { isEnabled(n: string, c: unknown, f: () => boolean): boolean; getVariant(n: string, c: unknown): Record<string, unknown> };
const UnleashClient = (require('unleash-client/lib/client.js') as { default: new (repo: unknown, strategies: unknown[]) => SdkClient }).default;
const { defaultStrategies } = require('unleash-client/lib/strategy/index.js') as { defaultStrategies: unknown[] };

const features: SpecFeature[] = [
  { name: 'in.case', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['Alice'], caseInsensitive: true }] }] },
  { name: 'str.case', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['ALI'], caseInsensitive: true }] }] },
  { name: 'str.blank', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'STR_CONTAINS', values: [' '] }] }] },
  { name: 'ip.v4', enabled: true, strategies: [{ name: 'remoteAddress', parameters: { IPs: 'bad, 10.0.0.0/8 ,192.168.0.1' } }] },
  { name: 'ip.v6', enabled: true, strategies: [{ name: 'remoteAddress', parameters: { IPs: '2001:db8::/32, 2001:db8::1' } }] },
  { name: 'rollout.no.group', enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId' } }] },
  { name: 'rollout.custom', enabled: true, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'tenant', groupId: 'g' } }] },
  {
    name: 'strategy.variants.no.group',
    enabled: true,
    strategies: [{ name: 'default', parameters: {}, variants: [{ name: 'a', weight: 1 }, { name: 'b', weight: 1 }, { name: 'c', weight: 1 }] }],
  },
  {
    name: 'variants.sticky.address',
    enabled: true,
    strategies: [],
    variants: [{ name: 'a', weight: 1, stickiness: 'default' }, { name: 'b', weight: 1 }, { name: 'zero', weight: 0 }, { name: 'c', weight: 1 }],
  },
  { name: 'date.now', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'x', operator: 'DATE_AFTER', value: '2001-01-01T00:00:00Z' }] }] },
  { name: 'num.blank', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'n', operator: 'NUM_EQ', value: '0' }] }] },
  { name: 'semver.pre', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'v', operator: 'SEMVER_LT', value: '2.0.0' }] }] },
  { name: 'with.id.blank', enabled: true, strategies: [{ name: 'userWithId', parameters: { userIds: 'a,,b' } }] },
];

const contexts: EvaluationContext[] = [
  {},
  { userId: 'alice' },
  { userId: 'Alice' },
  { userId: 'ALICE-2' },
  { userId: '' },
  { userId: 'a b' },
  { remoteAddress: '10.20.30.40' },
  { remoteAddress: '192.168.0.1' },
  { remoteAddress: '11.0.0.1' },
  { remoteAddress: '2001:db8::1' },
  { remoteAddress: '2001:db8::2' },
  { remoteAddress: 'bad' },
  ...Array.from({ length: 40 }, (_, i) => ({ userId: `user-${i}`, properties: { tenant: `t-${i}` } })),
  ...Array.from({ length: 20 }, (_, i) => ({ remoteAddress: `10.0.0.${i}` })),
  { properties: { n: '' } },
  { properties: { n: '0.0' } },
  { properties: { v: '2.0.0-rc.1' } },
  { properties: { v: 'v1.0.0' } },
  { properties: { v: '1.9.9+build' } },
  { currentTime: '2000-06-01T00:00:00Z' },
];

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.9);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const { definitions, segments } = adaptState({ features });
const flags = compileFlags(definitions, segments);
const sdk = new UnleashClient({ getToggle: (n: string) => features.find((f) => f.name === n), getSegment: () => undefined }, defaultStrategies);

test.each(features.map((f) => f.name))('%s: the SDK answer for every context', (name) => {
  for (const context of contexts) {
    const ours = evaluate(flags.get(name)!, context, flags);
    const label = JSON.stringify(context);
    expect({ label, enabled: ours.enabled }).toEqual({ label, enabled: sdk.isEnabled(name, context, () => false) });
    expect({ label, ...ours.variant }).toEqual({ label, ...sdk.getVariant(name, context) });
  }
});

describe('decisions, spelled out', () => {
  const on = (name: string, context: EvaluationContext) => evaluate(flags.get(name)!, context, flags).enabled;

  test('IN is case-sensitive even with caseInsensitive (SDK); STR_* honour it', () => {
    expect(on('in.case', { userId: 'alice' })).toBe(false);
    expect(on('in.case', { userId: 'Alice' })).toBe(true);
    expect(on('str.case', { userId: 'alice' })).toBe(true);
  });

  test('remoteAddress matches IPv4 ranges, and IPv6 only as exact text (SDK)', () => {
    expect(on('ip.v4', { remoteAddress: '10.20.30.40' })).toBe(true);
    expect(on('ip.v6', { remoteAddress: '2001:db8::1' })).toBe(true);
    expect(on('ip.v6', { remoteAddress: '2001:db8::2' })).toBe(false);
  });

  test('currentTime defaults to now', () => {
    expect(on('date.now', {})).toBe(true);
    expect(on('date.now', { currentTime: '2000-06-01T00:00:00Z' })).toBe(false);
  });
});
