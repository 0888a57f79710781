/**
 * Variant lists (a flag's, or a strategy's) compiled for selection, with the
 * Node SDK's rules (`variant.js`): an override wins, else the sticky id's
 * bucket (seed 86028157, normalizer = total weight) walks the weights in
 * order, skipping weight 0. Results are built and frozen here, so selecting
 * one allocates nothing.
 */
import type { VariantDefinition } from './definition.types.js';
import type { EvaluatedVariant, Evaluation, EvaluationContext } from './evaluation.types.js';
import { resolveContextValue, standardField } from './context-value.js';
import { variantBucket } from './normalized-hash.js';

interface CompiledOverride {
  readonly contextName: string;
  readonly values: ReadonlySet<string>;
}

interface CompiledVariant {
  readonly weight: number;
  readonly overrides: readonly CompiledOverride[];
  /** The whole answer of an enabled flag that lands here, so selecting allocates nothing. */
  readonly result: Evaluation;
}

/** A non-empty variant list with a positive total weight. */
export interface CompiledVariants {
  readonly definitions: readonly VariantDefinition[];
  readonly groupId: string;
  /** `default`, or the context field to stick to. */
  readonly stickiness: string;
  readonly totalWeight: number;
  readonly variants: readonly CompiledVariant[];
}

/** The variant of an enabled flag, as the SDK returns it. */
function enabledVariant(definition: VariantDefinition): EvaluatedVariant {
  const { name, payload } = definition;
  return Object.freeze(
    payload
      ? { name, enabled: true, payload: Object.freeze({ type: payload.type, value: payload.value }), feature_enabled: true, featureEnabled: true }
      : { name, enabled: true, feature_enabled: true, featureEnabled: true },
  );
}

/**
 * Compiles a list; undefined when it can never select anything (empty, or
 * weights summing to 0 or less), which sends selection to the next source.
 *
 * @example
 * compileVariants([{ name: 'a', weight: 1 }], 'my-flag', 'default')?.totalWeight // 1
 */
export function compileVariants(
  definitions: readonly VariantDefinition[] | undefined,
  groupId: string,
  stickiness: string,
): CompiledVariants | undefined {
  if (!definitions || definitions.length === 0) return undefined;
  const totalWeight = definitions.reduce((sum, v) => sum + v.weight, 0);
  if (!(totalWeight > 0)) return undefined;
  const variants = definitions.map((definition) => ({
    weight: definition.weight,
    overrides: (definition.overrides ?? []).map((o) => ({ contextName: o.contextName, values: new Set(o.values) })),
    result: Object.freeze({ enabled: true, variant: enabledVariant(definition) }),
  }));
  return { definitions, groupId, stickiness, totalWeight, variants };
}

/** The SDK's random sticky id for variants, 0 to 100000 as text. */
const randomSeed = () => String(Math.round(Math.random() * 100000));

function stickyId(context: EvaluationContext, stickiness: string): string {
  if (stickiness !== 'default') return resolveContextValue(context, stickiness) || randomSeed();
  return standardField(context, 'userId') ?? standardField(context, 'sessionId') ?? standardField(context, 'remoteAddress') ?? randomSeed();
}

function overridden(variant: CompiledVariant, context: EvaluationContext): boolean {
  for (const override of variant.overrides) {
    const value = resolveContextValue(context, override.contextName);
    if (value !== undefined && override.values.has(value)) return true;
  }
  return false;
}

/**
 * The answer of an enabled flag with the selected variant, or undefined when
 * the walk finds none.
 *
 * @example
 * const variants = compileVariants([{ name: 'a', weight: 1 }, { name: 'b', weight: 1 }], 'Feature.Variants.B', 'default');
 * selectVariant(variants!, { userId: '2' })?.variant.name // 'b'
 */
export function selectVariant(compiled: CompiledVariants, context: EvaluationContext): Evaluation | undefined {
  const { variants } = compiled;
  for (let i = 0; i < variants.length; i++) {
    const variant = variants[i] as CompiledVariant;
    if (variant.overrides.length > 0 && overridden(variant, context)) return variant.result;
  }
  const target = variantBucket(stickyId(context, compiled.stickiness), compiled.groupId, compiled.totalWeight);
  let counter = 0;
  for (let i = 0; i < variants.length; i++) {
    const variant = variants[i] as CompiledVariant;
    if (variant.weight === 0) continue;
    counter += variant.weight;
    if (counter >= target) return variant.result;
  }
  return undefined;
}
