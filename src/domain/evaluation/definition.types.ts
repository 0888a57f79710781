/**
 * What the evaluation engine compiles: one flag in one environment, in the
 * shape of a client-features answer. Every field a stored record carries
 * (`Flag`, `Strategy`, `Constraint`, `Variant`) fits, and so does the
 * client-specification `state`, which omits most optional keys.
 *
 * Operators and strategy names are plain strings on purpose: a name the
 * engine does not know is data to evaluate as false, not a type error.
 */
import type { Payload } from '../types.js';

/** One constraint; `values` for list operators, `value` for single-value ones. */
export interface ConstraintDefinition {
  readonly contextName: string;
  readonly operator: string;
  readonly values?: readonly string[] | undefined;
  readonly value?: string | undefined;
  readonly caseInsensitive?: boolean | undefined;
  readonly inverted?: boolean | undefined;
}

/** Pins a flag variant to the context values listed. */
export interface OverrideDefinition {
  readonly contextName: string;
  readonly values: readonly string[];
}

/** A flag or strategy variant; `weightType` plays no part in evaluation (the stored weights are final). */
export interface VariantDefinition {
  readonly name: string;
  readonly weight: number;
  readonly weightType?: string | undefined;
  readonly stickiness?: string | undefined;
  readonly payload?: Payload | undefined;
  readonly overrides?: readonly OverrideDefinition[] | undefined;
}

/** A strategy; `id`, `title` and `disabled` matter only to the playground's explanation. */
export interface StrategyDefinition {
  readonly id?: string | undefined;
  readonly name: string;
  readonly title?: string | null | undefined;
  /** A disabled strategy is never evaluated; the explanation lists it as unevaluated. */
  readonly disabled?: boolean | undefined;
  readonly constraints?: readonly ConstraintDefinition[] | undefined;
  readonly parameters?: Readonly<Record<string, string>> | undefined;
  readonly variants?: readonly VariantDefinition[] | undefined;
  /** Segment ids; each segment's constraints are ANDed into the strategy's own. */
  readonly segments?: readonly number[] | undefined;
}

/** A parent the flag depends on; `enabled` defaults to true. */
export interface DependencyDefinition {
  readonly feature: string;
  readonly enabled?: boolean | undefined;
  /** When non-empty, the parent must also yield one of these variants. */
  readonly variants?: readonly string[] | undefined;
}

/** One flag in one environment. */
export interface FlagDefinition {
  readonly name: string;
  /** The flag's on/off state in the environment evaluated. */
  readonly enabled: boolean;
  readonly impressionData?: boolean | undefined;
  /** In evaluation order (the client API's order: `sortOrder`). */
  readonly strategies: readonly StrategyDefinition[];
  readonly variants?: readonly VariantDefinition[] | undefined;
  readonly dependencies?: readonly DependencyDefinition[] | undefined;
}

/** A segment as strategies reference it. */
export interface SegmentDefinition {
  readonly id: number;
  readonly name: string;
  readonly constraints: readonly ConstraintDefinition[];
}

/**
 * Finds a segment by id at compile time; `undefined` makes every strategy
 * that names the id false (the SDK's rule for a segment it does not have).
 */
export type SegmentLookup = (id: number) => SegmentDefinition | undefined;

/** Facts about the evaluating service that some strategies need. */
export interface CompileOptions {
  /**
   * The host name `applicationHostname` compares with. Absent: the strategy
   * is false when evaluated and `unknown` when explained, since a server
   * answering for browsers has no meaningful host name of its own.
   */
  readonly hostname?: string | undefined;
}
