/**
 * The strategy form of the flag page and of a project's default strategies: its fields are named by the API
 * body's dot paths (`title`, `parameters.rollout`, `constraints.0.values`, `segments`, `variants.1.weight`), read
 * into a draft (what the form shows again after a refusal), made into the body the API's `StrategySchema`
 * validates, and an API path names the field its message goes under.
 */
import * as v from 'valibot';
import type { Strategy, StrategyInput } from '../../domain/types.js';
import { StrategySchema } from '../../schemas/strategy.schema.js';
import { constraintDraftOf, constraintField, constraintRows, constraintsBodyOf } from './constraints.form.js';
import { checkbox, group, list, trimmed } from './fields.js';
import { defineForm } from './form.js';
import { variantDraftOf, variantField, variantRows, variantsBodyOf } from './variants.form.js';

/** The strategy form as sent: its draft is what the form shows again. */
export const StrategyFields = v.object({
  name: trimmed(), title: trimmed(), disabled: checkbox(), parameters: group(),
  constraints: constraintRows(),
  segments: v.pipe(list(), v.transform((ids) => ids.map(Number).filter(Number.isInteger))),
  variants: variantRows(),
});
export type StrategyDraft = v.InferOutput<typeof StrategyFields>;

/** What the new strategy form starts with: a gradual rollout to everyone, as Unleash offers. */
export function newStrategyDraft(stickiness = 'default'): StrategyDraft {
  return { name: 'flexibleRollout', title: '', disabled: false, parameters: { rollout: '100', stickiness, groupId: '' }, constraints: [], segments: [], variants: [] };
}

/** A stored strategy (a flag's, or a project's default strategy) as a draft. */
export function draftOf(strategy: Strategy | StrategyInput): StrategyDraft {
  return {
    name: strategy.name, title: strategy.title ?? '', disabled: strategy.disabled === true, parameters: { ...strategy.parameters },
    constraints: (strategy.constraints ?? []).map(constraintDraftOf), segments: [...(strategy.segments ?? [])], variants: (strategy.variants ?? []).map(variantDraftOf),
  };
}

/** The API body of a draft (before validation: the schema decides whether it is one). */
export function strategyBodyOf(draft: StrategyDraft): Record<string, unknown> {
  // An empty groupId or stickiness means "not given": the domain fills its default.
  const parameters = Object.fromEntries(Object.entries(draft.parameters).filter(([key, value]) => value !== '' || (key !== 'groupId' && key !== 'stickiness')));
  return {
    name: draft.name, title: draft.title === '' ? null : draft.title, disabled: draft.disabled, parameters,
    constraints: constraintsBodyOf(draft.constraints), segments: draft.segments, variants: variantsBodyOf(draft.variants, false),
  };
}

/**
 * The form field an API path names: `name`, `title`, a parameter (`parameters.rollout`), a constraint's or a
 * variant's field, the segments; undefined for any other path (the form as a whole).
 *
 * @example strategyField('constraints.0.value') // 'constraints.0.values'
 */
export function strategyField(path: string): string | undefined {
  const [head, key] = path.split('.');
  if (head === 'name' || head === 'title') return head;
  if (head === 'parameters' && key !== undefined) return `parameters.${key}`;
  if (head === 'segments') return 'segments';
  if (head === 'constraints') return constraintField(path);
  if (head === 'variants') return variantField(path);
  return undefined;
}

/** The strategy form (its name, on the flag page, is `strategy:<environment>:<id|new>`; in the settings `default:<environment>`). */
export const StrategyForm = defineForm({ name: 'strategy', fields: StrategyFields, body: strategyBodyOf, schema: StrategySchema, field: strategyField });
