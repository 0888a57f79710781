/**
 * The fast path: a compiled flag and a context in, `{enabled, variant}` out,
 * with the Node SDK's semantics (`client.js`). It allocates nothing beyond
 * the strings that hashing and case folding need: every answer object is
 * built and frozen at compile time or here at module load.
 */
import type { EvaluatedVariant, Evaluation, EvaluationContext } from './evaluation.types.js';
import type { CompiledDependency, CompiledFlag, CompiledFlags } from './flag.compile.js';
import { strategyEnabled, type CompiledStrategy } from './strategy.compile.js';
import { selectVariant } from './variant.compile.js';

/** The variant of a flag that is off (or unknown) for the context. */
export const DISABLED_VARIANT: EvaluatedVariant = Object.freeze({
  name: 'disabled',
  enabled: false,
  feature_enabled: false,
  featureEnabled: false,
});

/** The variant of a flag that is on but has no variant for the context; the browser SDK needs one. */
export const ENABLED_WITHOUT_VARIANT: EvaluatedVariant = Object.freeze({
  name: 'disabled',
  enabled: false,
  feature_enabled: true,
  featureEnabled: true,
});

const OFF: Evaluation = Object.freeze({ enabled: false, variant: DISABLED_VARIANT });
const ON: Evaluation = Object.freeze({ enabled: true, variant: ENABLED_WITHOUT_VARIANT });

/**
 * Whether one parent condition holds. A parent that is missing, or that has
 * parents of its own (one level only), fails it.
 */
function parentSatisfied(dependency: CompiledDependency, context: EvaluationContext, flags: CompiledFlags | undefined): boolean {
  const parent = flags?.get(dependency.feature);
  if (!parent || parent.dependencies.length > 0) return false;
  const result = evaluate(parent, context, flags);
  if (!dependency.enabled) return !result.enabled;
  if (dependency.variants) return result.variant.feature_enabled && dependency.variants.has(result.variant.name);
  return result.enabled;
}

/** Every parent condition holds (true without dependencies). */
export function dependenciesSatisfied(flag: CompiledFlag, context: EvaluationContext, flags: CompiledFlags | undefined): boolean {
  const { dependencies } = flag;
  for (let i = 0; i < dependencies.length; i++) {
    if (!parentSatisfied(dependencies[i] as CompiledDependency, context, flags)) return false;
  }
  return true;
}

/** The first active strategy that is true, or undefined. */
function winningStrategy(flag: CompiledFlag, context: EvaluationContext): CompiledStrategy | undefined {
  const { active } = flag;
  for (let i = 0; i < active.length; i++) {
    const strategy = active[i] as CompiledStrategy;
    if (strategyEnabled(strategy, context)) return strategy;
  }
  return undefined;
}

/**
 * The answer for an enabled flag: the winning strategy's variant if it has
 * any, else the flag's variants, else the enabled "disabled" variant.
 */
export function enabledResult(flag: CompiledFlag, winner: CompiledStrategy | undefined, context: EvaluationContext): Evaluation {
  const fromStrategy = winner?.variants ? selectVariant(winner.variants, context) : undefined;
  if (fromStrategy) return fromStrategy;
  return (flag.variants ? selectVariant(flag.variants, context) : undefined) ?? ON;
}

/**
 * Evaluates a flag for a context. The flag is off when it is disabled in the
 * environment, a parent condition fails, or no active strategy is true; a
 * flag that is on with no active strategy is on for everyone (the SDK's and
 * the specification's rule). Pass `flags` when flags may have parents.
 *
 * @example
 * const flag = compileFlag({ name: 'beta', enabled: true, strategies: [
 *   { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'beta' } },
 * ] }, () => undefined);
 * evaluate(flag, { userId: '42' }) // { enabled: true|false, variant: { name: 'disabled', ... } }
 */
export function evaluate(flag: CompiledFlag, context: EvaluationContext, flags?: CompiledFlags): Evaluation {
  if (!flag.enabled) return OFF;
  if (flag.dependencies.length > 0 && !dependenciesSatisfied(flag, context, flags)) return OFF;
  if (flag.active.length === 0) return enabledResult(flag, undefined, context);
  const winner = winningStrategy(flag, context);
  return winner ? enabledResult(flag, winner, context) : OFF;
}
