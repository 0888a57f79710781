/**
 * The playground's path: the same compiled flag as `evaluate`, but every
 * strategy, constraint and segment is answered and reported, so it
 * allocates freely. It reuses the fast path's pieces (compiled tests,
 * variant selection, `enabledResult`, the dependency check) so the two
 * cannot drift; the tests check they agree on `enabled` and `variant` for
 * every vector.
 *
 * Where Unleash 6.10's playground evaluator forks from its own SDK (IN with
 * `caseInsensitive`, `v`-prefixed versions, a missing segment passing), this
 * follows the SDK, because the frontend API answers with SDK semantics and
 * the playground should predict those answers.
 */
import type { Evaluation, EvaluationContext } from './evaluation.types.js';
import type { CompiledConstraint, CompiledSegment } from './constraint.compile.js';
import type { CompiledStrategy } from './strategy.compile.js';
import type { CompiledFlag, CompiledFlags } from './flag.compile.js';
import type {
  ConstraintExplanation,
  ExplainedResult,
  FlagExplanation,
  SegmentExplanation,
  StrategyExplanation,
  StrategyResultExplanation,
} from './explanation.types.js';
import { DISABLED_VARIANT, dependenciesSatisfied, enabledResult } from './flag.evaluate.js';
import { selectVariant } from './variant.compile.js';

function explainConstraints(constraints: readonly CompiledConstraint[], context: EvaluationContext): ConstraintExplanation[] {
  return constraints.map((c) => ({ ...c.definition, result: c.test(context) }));
}

function explainSegment(segment: CompiledSegment, context: EvaluationContext): SegmentExplanation {
  const constraints = explainConstraints(segment.constraints, context);
  return { id: segment.id, name: segment.name, result: segment.found && constraints.every((c) => c.result), constraints };
}

interface StrategyOutcome {
  readonly explanation: StrategyExplanation;
  /** The strategy's own variant answer when it is true and selected one. */
  readonly chosen: Evaluation | undefined;
}

function explainStrategy(strategy: CompiledStrategy, context: EvaluationContext): StrategyOutcome {
  const { definition } = strategy;
  const constraints = explainConstraints(strategy.constraints, context);
  const segments = strategy.segments.map((s) => explainSegment(s, context));
  const checksPass = constraints.every((c) => c.result) && segments.every((s) => s.result);
  let result: StrategyResultExplanation;
  let chosen: Evaluation | undefined;
  if (strategy.disabled) {
    result = { enabled: 'unknown', evaluationStatus: 'unevaluated' };
  } else if (strategy.test === undefined) {
    result = { enabled: checksPass ? 'unknown' : false, evaluationStatus: 'incomplete' };
  } else {
    const enabled = checksPass && strategy.test(context);
    chosen = enabled && strategy.variants ? selectVariant(strategy.variants, context) : undefined;
    const variant = chosen?.variant;
    result = variant
      ? {
          enabled,
          evaluationStatus: 'complete',
          variant: variant.payload ? { name: variant.name, enabled: true, payload: variant.payload } : { name: variant.name, enabled: true },
          variants: strategy.variants?.definitions ?? [],
        }
      : { enabled, evaluationStatus: 'complete' };
  }
  const explanation: StrategyExplanation = {
    id: definition.id ?? '',
    name: definition.name,
    ...(typeof definition.title === 'string' ? { title: definition.title } : {}),
    disabled: strategy.disabled,
    parameters: definition.parameters ?? {},
    result,
    constraints,
    segments,
  };
  return { explanation, chosen };
}

/**
 * Explains a flag for a context: every strategy with its result, each
 * constraint and segment with theirs, and the flag's overall answer, which
 * is always what `evaluate` returns for the same input.
 *
 * @example
 * const flag = compileFlag({ name: 'beta', enabled: true, strategies: [
 *   { id: 's1', name: 'default', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] },
 * ] }, () => undefined);
 * explain(flag, { properties: { plan: 'free' } }).strategies
 * // { result: false, data: [{ id: 's1', name: 'default', result: { enabled: false, evaluationStatus: 'complete' },
 * //   constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'], result: false }], segments: [], ... }] }
 */
export function explain(flag: CompiledFlag, context: EvaluationContext, flags?: CompiledFlags): FlagExplanation {
  const hasUnsatisfiedDependency = flag.dependencies.length > 0 && !dependenciesSatisfied(flag, context, flags);
  const outcomes = flag.strategies.map((s) => explainStrategy(s, context));
  const data = outcomes.map((o) => o.explanation);
  const winnerIndex = data.findIndex((s) => s.result.enabled === true);
  let result: ExplainedResult;
  if (flag.active.length === 0) {
    // No active strategy: on for everyone when the flag is on, as `evaluate` (and the SDK) say.
    result = flag.enabled;
  } else if (winnerIndex >= 0) {
    result = true;
  } else {
    result = data.some((s) => s.result.enabled === 'unknown') ? 'unknown' : false;
  }
  const isEnabled = result === true && flag.enabled && !hasUnsatisfiedDependency;
  const winner = winnerIndex >= 0 ? outcomes[winnerIndex] : undefined;
  const answer = isEnabled
    ? (winner?.chosen ?? enabledResult(flag, undefined, context))
    : undefined;
  return {
    name: flag.name,
    isEnabled,
    isEnabledInCurrentEnvironment: flag.enabled,
    hasUnsatisfiedDependency,
    variant: answer?.variant ?? DISABLED_VARIANT,
    variants: winner?.chosen ? (flag.strategies[winnerIndex]?.variants?.definitions ?? []) : flag.variantDefinitions,
    strategies: { result, data },
  };
}
