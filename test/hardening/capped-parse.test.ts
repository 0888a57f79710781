/**
 * Finding 2, the validation itself: valibot collects every issue, so a 1 MiB body of junk items costs it
 * a second and hundreds of thousands of issue objects. `safeParseCapped` stops after a hundred issues and
 * otherwise parses exactly like `v.safeParse`. These tests also hold valibot to the behaviour the cap
 * relies on (reading `config.abortEarly` as it goes): a valibot upgrade that changes it fails here.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { afterEach, describe, expect, test } from 'vitest';
import { ISSUES_COLLECTED_MAX, safeParseCapped } from '../../src/schemas/capped-parse.js';
import { BatchFeaturesSchema, CreateFeatureSchema } from '../../src/schemas/feature.schema.js';
import { DETAILS_MAX, formatIssues } from '../../src/schemas/issues.js';
import { JsonPatchSchema } from '../../src/schemas/patch.schema.js';
import { StrategySchema } from '../../src/schemas/strategy.schema.js';
import { VariantsSchema } from '../../src/schemas/variant.schema.js';

const MiB = 1024 * 1024;
const fill = (item: unknown, bytes = MiB) => Array.from({ length: Math.floor(bytes / (JSON.stringify(item).length + 1)) }, () => item);
const described = (issues: readonly v.BaseIssue<unknown>[] | undefined) => (issues ?? []).map((i) => `${v.getDotPath(i)}: ${i.message}`);

afterEach(() => v.deleteGlobalConfig());

describe('safeParseCapped', () => {
  test.each([
    ['batch delete of 1 MiB of numbers', BatchFeaturesSchema, (bytes: number) => ({ features: fill(1, bytes) })],
    ['a strategy with 1 MiB of empty constraints', StrategySchema, (bytes: number) => ({ name: 'default', constraints: fill({}, bytes) })],
    ['a strategy with constraints of 1000 bad values', StrategySchema, (bytes: number) => ({
      name: 'default', constraints: Array.from({ length: bytes === MiB ? 100 : 10 }, () => ({ contextName: 'u', operator: 'IN', values: fill(1, 2000) })),
    })],
    ['variants of 1 MiB of zeros', VariantsSchema, (bytes: number) => fill(0, bytes)],
  ])('%s: stops after at most the cap, with the first issues a full parse gives', (_label, schema, input) => {
    const body = input(MiB);
    const capped = safeParseCapped(schema as v.GenericSchema, body);
    expect(capped.success).toBe(false);
    expect(capped.capped).toBe(true);
    expect(capped.issues!.length).toBeLessThanOrEqual(ISSUES_COLLECTED_MAX);
    expect(formatIssues(capped.issues!).details).toHaveLength(DETAILS_MAX);
    // A full parse of the same input, cut short (its first items are the same), starts with the same issues.
    const full = v.safeParse(schema as v.GenericSchema, input(32 * 1024));
    expect(full.issues!.length).toBeGreaterThan(ISSUES_COLLECTED_MAX);
    expect(described(capped.issues)).toEqual(described(full.issues).slice(0, capped.issues!.length));
  });

  test('parses like v.safeParse when there are fewer issues than the cap', () => {
    const schemas = [CreateFeatureSchema, StrategySchema, VariantsSchema, JsonPatchSchema] as v.GenericSchema[];
    fc.assert(
      fc.property(fc.constantFrom(...schemas.keys()), fc.jsonValue({ maxDepth: 4 }), (which, input) => {
        const schema = schemas[which]!;
        const full = v.safeParse(schema, input);
        const capped = safeParseCapped(schema, input);
        expect(capped.success).toBe(full.success);
        if (full.success) expect(capped.output).toEqual(full.output);
        if ((full.issues?.length ?? 0) < 10) expect(described(capped.issues)).toEqual(described(full.issues));
      }),
      { numRuns: 400 },
    );
    expect(safeParseCapped(StrategySchema, { name: 'flexibleRollout', parameters: { rollout: 50 } }))
      .toEqual({ ...v.safeParse(StrategySchema, { name: 'flexibleRollout', parameters: { rollout: 50 } }), capped: false });
  });

  test('keeps the global configuration: abortEarly still stops at the first issue', () => {
    v.setGlobalConfig({ abortEarly: true });
    expect(safeParseCapped(BatchFeaturesSchema, { features: [1, 2, 3] }).issues).toHaveLength(1);
  });
});
