/**
 * A strategy compiled: its constraints, its segments' constraints, its own
 * test and its variants, all parsed once.
 */
import type { CompileOptions, SegmentLookup, StrategyDefinition } from './definition.types.js';
import type { EvaluationContext } from './evaluation.types.js';
import type { ContextTest } from './constraint-operators.js';
import { allPass, compileConstraints, compileSegments, segmentsPass, type CompiledConstraint, type CompiledSegment } from './constraint.compile.js';
import { strategyTest } from './builtin-strategies.js';
import { compileVariants, type CompiledVariants } from './variant.compile.js';

export interface CompiledStrategy {
  readonly definition: StrategyDefinition;
  readonly disabled: boolean;
  readonly constraints: readonly CompiledConstraint[];
  readonly segments: readonly CompiledSegment[];
  /** The strategy's own test; undefined when the engine cannot evaluate it (unknown name). */
  readonly test: ContextTest | undefined;
  /** Undefined when the strategy has no variants that can be selected. */
  readonly variants: CompiledVariants | undefined;
}

const noParameters: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Strategy variants stick to the first variant's stickiness, else the
 * strategy's, and group by the strategy's `groupId` read raw: the SDK
 * formats a missing one as the text `undefined`, and so must we to land in
 * the same bucket.
 */
function strategyVariants(definition: StrategyDefinition, parameters: Readonly<Record<string, string>>): CompiledVariants | undefined {
  const first = definition.variants?.[0];
  if (!first) return undefined;
  const own = (key: string) => (Object.hasOwn(parameters, key) ? parameters[key] : undefined);
  const stickiness = first.stickiness || own('stickiness');
  return compileVariants(definition.variants, String(own('groupId')), stickiness === undefined ? 'default' : stickiness);
}

/**
 * Compiles one strategy.
 *
 * @example
 * const s = compileStrategy({ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] }, () => undefined, {});
 * strategyEnabled(s, { userId: '1' }) // true
 */
export function compileStrategy(definition: StrategyDefinition, segments: SegmentLookup, options: CompileOptions): CompiledStrategy {
  const parameters = definition.parameters ?? noParameters;
  return {
    definition,
    disabled: definition.disabled === true,
    constraints: compileConstraints(definition.constraints),
    segments: compileSegments(definition.segments, segments),
    test: strategyTest(definition.name, parameters, options),
    variants: strategyVariants(definition, parameters),
  };
}

/**
 * The fast-path answer: constraints, then segments, then the strategy's own
 * test, stopping at the first false. A strategy it cannot evaluate is false.
 */
export function strategyEnabled(strategy: CompiledStrategy, context: EvaluationContext): boolean {
  return (
    strategy.test !== undefined &&
    allPass(strategy.constraints, context) &&
    segmentsPass(strategy.segments, context) &&
    strategy.test(context)
  );
}
