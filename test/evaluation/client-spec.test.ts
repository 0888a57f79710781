/**
 * Every vector of every loaded client-specification file, one test each:
 * `tests` check `enabled`, `variantTests` check the variant as the SDK's
 * `getVariant` returns it. A flag the state does not hold is off, as the SDK's
 * fallback says (the engine never sees unknown names; its callers do).
 */
import { describe, expect, test } from 'vitest';
import { compileFlags, DISABLED_VARIANT, evaluate, type EvaluationContext, type Evaluation } from '../../src/domain/evaluation/index.js';
import { KNOWN_FAILURES, listedSpecFiles, loadSpecFiles, NOT_LOADED } from './client-spec.js';

const files = loadSpecFiles();

function evaluator(file: (typeof files)[number]) {
  const flags = compileFlags(file.definitions, file.segments);
  return (name: string, context: EvaluationContext): Evaluation => {
    const flag = flags.get(name);
    return flag ? evaluate(flag, context, flags) : { enabled: false, variant: DISABLED_VARIANT };
  };
}

/** A vector listed in KNOWN_FAILURES must fail, so the list stays honest both ways. */
function expectOutcome(file: string, description: string, check: () => void): void {
  if (Object.hasOwn(KNOWN_FAILURES, `${file}: ${description}`)) expect(check).toThrow();
  else check();
}

test('every file index.json lists is either loaded or named with a reason', () => {
  const loaded = files.map((f) => f.file);
  for (const file of listedSpecFiles()) expect(loaded.includes(file) || Object.hasOwn(NOT_LOADED, file), file).toBe(true);
  expect(loaded.length + Object.keys(NOT_LOADED).length).toBe(listedSpecFiles().length);
});

describe.each(files.map((f) => [f.file, f] as const))('%s', (name, file) => {
  const run = evaluator(file);

  if (file.tests.length > 0) {
    describe('tests', () => {
      test.each(file.tests.map((t) => [t.description, t] as const))('%s', (description, vector) => {
        expectOutcome(name, description, () => {
          expect(run(vector.toggleName, vector.context).enabled).toBe(vector.expectedResult);
        });
      });
    });
  }

  if (file.variantTests.length > 0) {
    describe('variantTests', () => {
      test.each(file.variantTests.map((t) => [t.description, t] as const))('%s', (description, vector) => {
        expectOutcome(name, description, () => {
          const { variant } = run(vector.toggleName, vector.context);
          // The spec predates `featureEnabled`; it must always mirror `feature_enabled`.
          expect(variant.featureEnabled).toBe(variant.feature_enabled);
          const { featureEnabled: _mirror, ...compared } = variant;
          expect(compared).toEqual(vector.expectedResult);
        });
      });
    });
  }
});
