/**
 * The flag evaluation engine: compile a flag once per revision, then
 * `evaluate` it per request (frontend API, OFREP) or `explain` it (playground).
 *
 * @example
 * const flags = compileFlags(definitions, (id) => segments.get(id));
 * const { enabled, variant } = evaluate(flags.get('beta')!, { userId: '42' }, flags);
 */
export type {
  CompileOptions,
  ConstraintDefinition,
  DependencyDefinition,
  FlagDefinition,
  OverrideDefinition,
  SegmentDefinition,
  SegmentLookup,
  StrategyDefinition,
  VariantDefinition,
} from './definition.types.js';
export type { EvaluatedVariant, Evaluation, EvaluationContext } from './evaluation.types.js';
export type {
  ConstraintExplanation,
  ExplainedResult,
  FlagExplanation,
  SegmentExplanation,
  StrategyExplanation,
  StrategyResultExplanation,
  StrategyVariantExplanation,
} from './explanation.types.js';
export { compileFlag, compileFlags, type CompiledFlag, type CompiledFlags } from './flag.compile.js';
export { DISABLED_VARIANT, ENABLED_WITHOUT_VARIANT, evaluate } from './flag.evaluate.js';
export { explain } from './flag.explain.js';
export { flagDefinition } from './flag-definition.js';
