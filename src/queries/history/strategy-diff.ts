import type { Constraint, Strategy, StrategyInput, StrategyVariant, Variant } from '../../domain/types.js';
import { added, lists, moved, paired, pathOf, removed, scalar, words, type FieldChange } from './change-words.js';

/** How a strategy is named on a page: its name, and its title when it has one. */
export const strategyLabel = (s: Pick<Strategy, 'name'> & { title?: string | null | undefined }): string =>
  s.title ? `${s.name} "${s.title}"` : s.name;

/** A constraint in one line: `userId IN [a, b]`, `appVersion SEMVER_GT 1.2.0 (inverted)`. */
export function constraintWords(c: Constraint): string {
  const what = c.values !== undefined && c.values.length > 0 ? `[${c.values.join(', ')}]` : words(c.value ?? '');
  const flags = [c.inverted ? 'inverted' : '', c.caseInsensitive ? 'case-insensitive' : ''].filter(Boolean);
  return `${c.contextName} ${c.operator} ${what}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`;
}

/**
 * Constraints paired by context field and operator, in order (a strategy rarely has two on the same pair):
 * a pair's values added and removed, its single value, its switches; unpaired ones added or removed whole.
 */
export function constraintChanges(path: string, before: readonly Constraint[], after: readonly Constraint[], out: FieldChange[]): void {
  const keyOf = (c: Constraint) => `${c.contextName} ${c.operator}`;
  const left = [...before];
  for (const c of after) {
    const i = left.findIndex((b) => keyOf(b) === keyOf(c));
    if (i < 0) {
      out.push(added(pathOf(path, 'constraint'), constraintWords(c)));
      continue;
    }
    const [b] = left.splice(i, 1) as [Constraint];
    const at = pathOf(path, `constraint ${keyOf(c)}`);
    lists(pathOf(at, 'values'), b.values ?? [], c.values ?? [], out);
    scalar(pathOf(at, 'value'), b.value, c.value, out);
    scalar(pathOf(at, 'inverted'), b.inverted ?? false, c.inverted ?? false, out);
    scalar(pathOf(at, 'case-insensitive'), b.caseInsensitive ?? false, c.caseInsensitive ?? false, out);
  }
  for (const b of left) out.push(removed(pathOf(path, 'constraint'), constraintWords(b)));
}

/** Variants (of a flag or a strategy) paired by name: weights, stickiness, payloads, overrides; added and removed ones. */
export function variantChanges(path: string, before: readonly (Variant | StrategyVariant)[], after: readonly (Variant | StrategyVariant)[], out: FieldChange[]): void {
  for (const [b, a] of paired(before, after, (v) => v.name)) {
    if (!b) out.push(added(pathOf(path, 'variant'), `${a!.name} (weight ${a!.weight})`));
    else if (!a) out.push(removed(pathOf(path, 'variant'), `${b.name} (weight ${b.weight})`));
    else {
      const at = pathOf(path, `variant ${a.name}`);
      scalar(pathOf(at, 'weight'), b.weight, a.weight, out);
      scalar(pathOf(at, 'weight type'), b.weightType, a.weightType, out);
      scalar(pathOf(at, 'stickiness'), b.stickiness, a.stickiness, out);
      scalar(pathOf(at, 'payload'), b.payload, a.payload, out, (p) => (p ? `${(p as { type: string }).type} ${(p as { value: string }).value}` : '(none)'));
      const overrides = (v: Variant | StrategyVariant) => ('overrides' in v ? v.overrides ?? [] : []).map((o) => `${o.contextName}=${o.values.join('|')}`);
      lists(pathOf(at, 'overrides'), overrides(b), overrides(a), out);
    }
  }
}

/**
 * What moved in one strategy of `environment`: title, status, parameters (rollout 10 → 50, stickiness,
 * groupId...), constraints, segments, strategy variants.
 */
export function strategyChanges(environment: string | null, before: Strategy, after: Strategy, out: FieldChange[]): void {
  const at = pathOf(environment, strategyLabel(after));
  scalar(pathOf(at, 'name'), before.name, after.name, out);
  scalar(pathOf(at, 'title'), before.title ?? null, after.title ?? null, out);
  if ((before.disabled ?? false) !== (after.disabled ?? false)) out.push(moved(pathOf(at, 'status'), before.disabled ? 'disabled' : 'active', after.disabled ? 'disabled' : 'active'));
  const params = new Set([...Object.keys(before.parameters ?? {}), ...Object.keys(after.parameters ?? {})]);
  for (const key of params) scalar(pathOf(at, key), before.parameters?.[key], after.parameters?.[key], out);
  constraintChanges(at, before.constraints ?? [], after.constraints ?? [], out);
  lists(pathOf(at, 'segments'), (before.segments ?? []).map(String), (after.segments ?? []).map(String), out);
  variantChanges(at, before.variants ?? [], after.variants ?? [], out);
}

/** A strategy in one line, for when it is added or removed whole: its name and title, rollout, constraints. */
export function strategyWords(s: Strategy | StrategyInput): string {
  const rollout = s.parameters?.['rollout'];
  const constraints = s.constraints ?? [];
  const parts = [strategyLabel(s), rollout !== undefined ? `rollout ${rollout}%` : '', ...constraints.map(constraintWords), s.disabled ? 'disabled' : ''];
  return parts.filter(Boolean).join(', ');
}

/** The strategies of one environment paired by id: added, removed, changed. */
export function strategyListChanges(environment: string, before: readonly Strategy[], after: readonly Strategy[], out: FieldChange[]): void {
  for (const [b, a] of paired(before, after, (s) => s.id)) {
    if (!b) out.push(added(pathOf(environment, 'strategy'), strategyWords(a!)));
    else if (!a) out.push(removed(pathOf(environment, 'strategy'), strategyWords(b)));
    else if (b !== a) strategyChanges(environment, b, a, out);
  }
}
