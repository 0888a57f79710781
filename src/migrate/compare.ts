/**
 * The comparable forms of what the source holds and what the target holds, so a second migration finds
 * everything unchanged: defaults filled in on both sides, segments by name, and the weights of `variable`
 * variants left out (each side derives them from the list: docs/api-decisions.md "Variants").
 */
import { constraint, variant, type Strategy, type Variant } from './source-model.js';
import type { UnleashConstraint, UnleashVariant } from './unleash-schemas.js';

/** A strategy record of the target, or a part of one (a segment's constraints). */
export interface TargetStrategyLike {
  name: string;
  title?: string | null | undefined;
  disabled?: boolean | null | undefined;
  constraints?: readonly UnleashConstraint[] | undefined;
  parameters?: Record<string, string> | undefined;
  variants?: readonly UnleashVariant[] | undefined;
  segments?: readonly number[] | undefined;
}

/** A JSON text with sorted keys: equal values, equal texts. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

export const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/** Variants as compared: `variable` weights dropped (derived), overrides and payload normalized. */
export const variantsKey = (list: Variant[]): object[] => list.map((x) => ({ ...x, weight: x.weightType === 'fix' ? x.weight : null, overrides: x.overrides ?? [] }));

/** A strategy as compared. */
export const strategyKey = (s: Strategy): unknown => ({ ...s, variants: variantsKey(s.variants).map((x) => ({ ...x, overrides: [] })) });

/** A target strategy record (from the dump) in the source's shape; `segmentName` maps the target's ids. */
export function targetStrategy(s: TargetStrategyLike, segmentName: (id: number) => string): Strategy {
  return {
    name: s.name, title: s.title ?? null, disabled: s.disabled ?? false,
    constraints: (s.constraints ?? []).map(constraint),
    parameters: Object.fromEntries(Object.entries(s.parameters ?? {}).map(([k, value]) => [k, String(value)])),
    variants: (s.variants ?? []).map(variant),
    segments: (s.segments ?? []).map(segmentName),
  };
}

export const targetVariants = (list: readonly UnleashVariant[] | null | undefined): Variant[] => (list ?? []).map(variant);

/** Tags and dependencies compared as sets. */
export const tagsKey = (tags: { type: string; value: string }[]): string[] => tags.map((t) => `${t.type}:${t.value}`).sort();
export const dependenciesKey = (deps: { feature: string; enabled: boolean; variants?: string[] | undefined }[]): string[] =>
  deps.map((d) => canonical({ feature: d.feature, enabled: d.enabled, variants: d.enabled ? [...(d.variants ?? [])].sort() : [] })).sort();
