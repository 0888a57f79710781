/**
 * Beyond the fixed vectors: for every loaded specification state, random
 * contexts (built from the values the state's constraints, overrides and
 * parameters mention, plus arbitrary Unicode) must get the same `enabled`
 * and variant from the engine as from the real Node SDK 6.12 evaluating the
 * same state. `Math.random` is pinned so the SDK's random fallbacks agree.
 * Also the bucket function itself, against the SDK's, on arbitrary strings.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { compileFlags, DISABLED_VARIANT, evaluate, type EvaluationContext } from '../../src/domain/evaluation/index.js';
import { normalizedValue, STRATEGY_SEED, VARIANT_SEED } from '../../src/domain/evaluation/normalized-hash.js';
import { loadSpecFiles, type SpecFile } from './client-spec.js';

const require = createRequire(import.meta.url);
type SdkClient = { isEnabled(n: string, c: unknown, f: () => boolean): boolean; getVariant(n: string, c: unknown): Record<string, unknown> };
const UnleashClient = (require('unleash-client/lib/client.js') as { default: new (repo: unknown, strategies: unknown[]) => SdkClient }).default;
const { defaultStrategies } = require('unleash-client/lib/strategy/index.js') as { defaultStrategies: unknown[] };
const sdkUtil = require('unleash-client/lib/strategy/util.js') as {
  normalizedStrategyValue(id: string, groupId: string): number;
  normalizedVariantValue(id: string, groupId: string, normalizer: number): number;
};

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.42);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Every context field name and value the state mentions. */
function pools(file: SpecFile): { names: string[]; values: string[] } {
  const names = new Set<string>(['customField', 'version', 'clientId']);
  const values = new Set<string>(['', '0', '1.0.0', '127.0.0.1', '2022-01-22T12:00:00.000Z']);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'contextName' && typeof value === 'string') names.add(value);
      if (key === 'stickiness' && typeof value === 'string') names.add(value);
      if ((key === 'values' || key === 'value') && value !== undefined) [value].flat().forEach((v) => values.add(String(v)));
      if ((key === 'userIds' || key === 'IPs') && typeof value === 'string') value.split(/\s*,\s*/).forEach((v) => values.add(v));
      visit(value);
    }
  };
  visit(file.state);
  return { names: [...names].filter((n) => !['userId', 'sessionId', 'remoteAddress', 'environment', 'appName', 'currentTime'].includes(n)), values: [...values] };
}

function contexts(file: SpecFile): fc.Arbitrary<EvaluationContext> {
  const { names, values } = pools(file);
  const value = fc.oneof(fc.constantFrom(...values), fc.string(), fc.string({ unit: 'grapheme' }), fc.integer({ min: -5, max: 200 }).map(String));
  const time = fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  return fc.record(
    {
      userId: value,
      sessionId: value,
      remoteAddress: value,
      environment: value,
      appName: value,
      currentTime: time,
      properties: fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 4 }),
    },
    { requiredKeys: [] },
  );
}

describe.each(loadSpecFiles().map((f) => [f.file, f] as const))('%s', (_name, file) => {
  const flags = compileFlags(file.definitions, file.segments);
  const features = file.state.features as { name: string }[];
  const segments = (file.state.segments ?? []) as { id: number }[];
  const sdk = new UnleashClient(
    { getToggle: (n: string) => features.find((f) => f.name === n), getSegment: (id: number) => segments.find((s) => s.id === id) },
    defaultStrategies,
  );
  const names = [...features.map((f) => f.name), 'no.such.flag'];

  test('random contexts get the SDK answer for every flag', () => {
    fc.assert(
      fc.property(contexts(file), (context) => {
        for (const name of names) {
          const flag = flags.get(name);
          const ours = flag ? evaluate(flag, context, flags) : { enabled: false, variant: DISABLED_VARIANT };
          expect({ flag: name, enabled: ours.enabled }).toEqual({ flag: name, enabled: sdk.isEnabled(name, context, () => false) });
          expect({ flag: name, ...ours.variant }).toEqual({ flag: name, ...sdk.getVariant(name, context) });
        }
      }),
      { numRuns: 200 },
    );
  });
});

test('rollout and variant buckets equal the SDK on arbitrary strings, non-ASCII included', () => {
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
  fc.assert(
    fc.property(text, text, fc.integer({ min: 1, max: 10_000 }), (id, groupId, normalizer) => {
      expect(normalizedValue(id, groupId, 100, STRATEGY_SEED)).toBe(sdkUtil.normalizedStrategyValue(id, groupId));
      expect(normalizedValue(id, groupId, normalizer, VARIANT_SEED)).toBe(sdkUtil.normalizedVariantValue(id, groupId, normalizer));
    }),
    { numRuns: 2000 },
  );
});
