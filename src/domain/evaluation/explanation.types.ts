/**
 * The playground's view of one flag, in the shape Unleash 6.10's
 * `POST /api/admin/playground` answers per feature (less `projectId` and
 * each strategy's `links`, which the route adds).
 */
import type { Payload } from '../types.js';
import type { ConstraintDefinition, VariantDefinition } from './definition.types.js';
import type { EvaluatedVariant } from './evaluation.types.js';

/** `unknown`: the engine cannot tell (a strategy it cannot evaluate, or a disabled one). */
export type ExplainedResult = boolean | 'unknown';

/** A constraint echoed with its answer for the context. */
export type ConstraintExplanation = ConstraintDefinition & { readonly result: boolean };

export interface SegmentExplanation {
  readonly id: number;
  /** Empty when the segment was unknown at compile time (then `result` is false). */
  readonly name: string;
  readonly result: boolean;
  readonly constraints: readonly ConstraintExplanation[];
}

/** The variant a strategy selected, in the playground's strategy-result shape. */
export interface StrategyVariantExplanation {
  readonly name: string;
  readonly enabled: boolean;
  readonly payload?: Payload;
}

/**
 * `complete`: evaluated; `incomplete`: the strategy itself cannot be
 * evaluated (constraints and segments were); `unevaluated`: disabled.
 */
export type StrategyResultExplanation =
  | {
      readonly enabled: boolean;
      readonly evaluationStatus: 'complete';
      readonly variant?: StrategyVariantExplanation;
      readonly variants?: readonly VariantDefinition[];
    }
  | { readonly enabled: false | 'unknown'; readonly evaluationStatus: 'incomplete' | 'unevaluated' };

export interface StrategyExplanation {
  readonly id: string;
  readonly name: string;
  readonly title?: string;
  readonly disabled: boolean;
  readonly parameters: Readonly<Record<string, string>>;
  readonly result: StrategyResultExplanation;
  readonly constraints: readonly ConstraintExplanation[];
  readonly segments: readonly SegmentExplanation[];
}

export interface FlagExplanation {
  readonly name: string;
  /** What `evaluate` answers as `enabled`. */
  readonly isEnabled: boolean;
  /** The flag's on/off state in the environment, whatever the context. */
  readonly isEnabledInCurrentEnvironment: boolean;
  readonly hasUnsatisfiedDependency: boolean;
  /** What `evaluate` answers as `variant`. */
  readonly variant: EvaluatedVariant;
  /** The variant list the variant came from: the winning strategy's, else the flag's. */
  readonly variants: readonly VariantDefinition[];
  readonly strategies: {
    /** The first true strategy makes it true; else any unknown makes it unknown; else false. */
    readonly result: ExplainedResult;
    readonly data: readonly StrategyExplanation[];
  };
}
