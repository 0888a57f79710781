/**
 * Constraints and segments compiled into tests. A segment is a named list of
 * constraints that is ANDed into every strategy naming it.
 */
import type { ConstraintDefinition, SegmentDefinition, SegmentLookup } from './definition.types.js';
import type { EvaluationContext } from './evaluation.types.js';
import { operatorTest, type ContextTest } from './constraint-operators.js';

/** A constraint and its test; `definition` is kept only for the playground's echo. */
export interface CompiledConstraint {
  readonly definition: ConstraintDefinition;
  readonly test: ContextTest;
}

/** A segment a strategy names; `found: false` when the lookup did not know the id. */
export interface CompiledSegment {
  readonly id: number;
  readonly name: string;
  readonly found: boolean;
  readonly constraints: readonly CompiledConstraint[];
}

/**
 * One constraint; `inverted` negates the operator's answer, missing fields
 * included (an inverted IN on a missing field is true).
 *
 * @example
 * const c = compileConstraint({ contextName: 'plan', operator: 'IN', values: ['pro'], inverted: true });
 * c.test({ properties: { plan: 'free' } }) // true
 */
export function compileConstraint(definition: ConstraintDefinition): CompiledConstraint {
  const base = operatorTest(definition);
  const test: ContextTest = definition.inverted === true ? (context) => !base(context) : base;
  return { definition, test };
}

/** Compiles a list (absent = none). */
export function compileConstraints(definitions: readonly ConstraintDefinition[] | undefined): CompiledConstraint[] {
  return (definitions ?? []).map(compileConstraint);
}

/**
 * The segments a strategy names, in its order. An unknown id compiles to a
 * segment that never passes, which makes the strategy false, as in the SDK.
 */
export function compileSegments(ids: readonly number[] | undefined, lookup: SegmentLookup): CompiledSegment[] {
  return (ids ?? []).map((id) => {
    const segment: SegmentDefinition | undefined = lookup(id);
    if (!segment) return { id, name: '', found: false, constraints: [] };
    return { id, name: segment.name, found: true, constraints: compileConstraints(segment.constraints) };
  });
}

/** All constraints pass (an empty list passes); stops at the first failure. */
export function allPass(constraints: readonly CompiledConstraint[], context: EvaluationContext): boolean {
  for (let i = 0; i < constraints.length; i++) if (!(constraints[i] as CompiledConstraint).test(context)) return false;
  return true;
}

/** Every segment is known and all its constraints pass. */
export function segmentsPass(segments: readonly CompiledSegment[], context: EvaluationContext): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as CompiledSegment;
    if (!segment.found || !allPass(segment.constraints, context)) return false;
  }
  return true;
}
