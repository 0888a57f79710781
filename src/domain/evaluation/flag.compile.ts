/**
 * Compile once, evaluate many: a flag in one environment becomes closures and
 * parsed data (rollout numbers, Sets, lower-cased values, versions, dates,
 * CIDR ranges, frozen variant answers). Nothing here runs per request, and
 * nothing on the request path reads the definition again.
 */
import type { CompileOptions, FlagDefinition, SegmentLookup, VariantDefinition } from './definition.types.js';
import { compileStrategy, type CompiledStrategy } from './strategy.compile.js';
import { compileVariants, type CompiledVariants } from './variant.compile.js';

/** A parent condition; `variants` is undefined when any variant of an enabled parent will do. */
export interface CompiledDependency {
  readonly feature: string;
  readonly enabled: boolean;
  readonly variants: ReadonlySet<string> | undefined;
}

/** A flag ready for `evaluate` and `explain`. Treat as opaque outside this folder. */
export interface CompiledFlag {
  readonly name: string;
  readonly enabled: boolean;
  readonly impressionData: boolean;
  /** Every strategy in order, disabled ones included: the playground lists them. */
  readonly strategies: readonly CompiledStrategy[];
  /** The strategies evaluation walks: the enabled ones, in order. */
  readonly active: readonly CompiledStrategy[];
  /** The flag's own variants as defined (the playground echoes them). */
  readonly variantDefinitions: readonly VariantDefinition[];
  readonly variants: CompiledVariants | undefined;
  readonly dependencies: readonly CompiledDependency[];
}

/** Finds another compiled flag (a parent) by name; a `Map` fits. */
export interface CompiledFlags {
  get(name: string): CompiledFlag | undefined;
}

/**
 * Compiles one flag. Segments are resolved now; a later change to a segment
 * needs a recompile (flags are compiled per revision, so it gets one).
 *
 * @example
 * const flag = compileFlag({ name: 'beta', enabled: true, strategies: [{ name: 'default' }] }, () => undefined);
 * evaluate(flag, {}).enabled // true
 */
export function compileFlag(definition: FlagDefinition, segments: SegmentLookup, options: CompileOptions = {}): CompiledFlag {
  const strategies = definition.strategies.map((s) => compileStrategy(s, segments, options));
  const variantDefinitions = definition.variants ?? [];
  // Flag variants group by the flag name and stick to the first variant's stickiness (the SDK's `selectVariant`).
  const variants = compileVariants(variantDefinitions, definition.name, variantDefinitions[0]?.stickiness ?? 'default');
  return {
    name: definition.name,
    enabled: definition.enabled === true,
    impressionData: definition.impressionData === true,
    strategies,
    active: strategies.filter((s) => !s.disabled),
    variantDefinitions,
    variants,
    dependencies: (definition.dependencies ?? []).map((d) => ({
      feature: d.feature,
      enabled: d.enabled !== false,
      variants: d.variants && d.variants.length > 0 ? new Set(d.variants) : undefined,
    })),
  };
}

/**
 * Compiles every flag of one environment into a lookup by name, which
 * `evaluate` uses to find parents.
 *
 * @example
 * const flags = compileFlags(definitions, (id) => segmentsById.get(id));
 * evaluate(flags.get('child')!, context, flags);
 */
export function compileFlags(
  definitions: Iterable<FlagDefinition>,
  segments: SegmentLookup,
  options: CompileOptions = {},
): Map<string, CompiledFlag> {
  const flags = new Map<string, CompiledFlag>();
  for (const definition of definitions) flags.set(definition.name, compileFlag(definition, segments, options));
  return flags;
}
