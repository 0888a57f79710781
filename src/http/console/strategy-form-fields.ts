/**
 * The strategy form of the flag page: its fields are named by the API body's dot paths (`title`,
 * `parameters.rollout`, `constraints.0.values`, `segments.3`), so a message of the API (`"constraints.0.values":
 * ...`) names the field it belongs next to. A form becomes a draft (what the form shows again after a refusal),
 * and a draft becomes the body the API's schema validates.
 */
import { CONSTRAINT_OPERATORS, type ConstraintOperator } from '../../schemas/constraint.schema.js';
import type { Strategy, StrategyInput } from '../../domain/types.js';
import { variantDraftOf, variantDraftsFromForm, variantFieldOf, variantsBodyOf, type VariantDraft } from './variant-form-fields.js';

/** One constraint as the form holds it: the values one per line. */
export interface ConstraintDraft {
  contextName: string;
  operator: string;
  values: string;
  inverted: boolean;
  caseInsensitive: boolean;
}

/** A strategy as the form holds it. */
export interface StrategyDraft {
  name: string;
  title: string;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: ConstraintDraft[];
  segments: number[];
  /** Strategy variants, as rows (`variants.<n>.*`). */
  variants: VariantDraft[];
}

/** Operators that compare with a list of values; the others take one value (the first line). */
export const takesList = (operator: string): boolean => operator === 'IN' || operator === 'NOT_IN' || operator.startsWith('STR_');

/** What the new strategy form starts with: a gradual rollout to everyone, as Unleash offers. */
export function newStrategyDraft(stickiness = 'default'): StrategyDraft {
  return { name: 'flexibleRollout', title: '', disabled: false, parameters: { rollout: '100', stickiness, groupId: '' }, constraints: [], segments: [], variants: [] };
}

/** A stored strategy (a flag's, or a project's default strategy) as a draft. */
export function draftOf(strategy: Strategy | StrategyInput): StrategyDraft {
  return {
    name: strategy.name,
    title: strategy.title ?? '',
    disabled: strategy.disabled === true,
    parameters: { ...strategy.parameters },
    constraints: (strategy.constraints ?? []).map((c) => ({
      contextName: c.contextName,
      operator: c.operator,
      values: takesList(c.operator) ? (c.values ?? []).join('\n') : (c.value ?? ''),
      inverted: c.inverted === true,
      caseInsensitive: c.caseInsensitive === true,
    })),
    segments: [...(strategy.segments ?? [])],
    variants: (strategy.variants ?? []).map(variantDraftOf),
  };
}

const lines = (text: string): string[] => text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');

/**
 * The draft a submitted form describes. Rows marked `remove` are dropped and an untouched new row (no context
 * field) is ignored, so a constraint's index in the draft is its index in the body (and in the form shown again).
 */
export function draftFromForm(form: Record<string, string>): StrategyDraft {
  const parameters: Record<string, string> = Object.create(null) as Record<string, string>;
  const constraints: ConstraintDraft[] = [];
  const segments: number[] = [];
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith('parameters.')) parameters[key.slice('parameters.'.length)] = value.trim();
    const segment = /^segments\.(\d+)$/.exec(key);
    if (segment && value === 'on') segments.push(Number(segment[1]));
  }
  for (let row = 0; form[`constraints.${row}.operator`] !== undefined; row += 1) {
    const at = (field: string) => form[`constraints.${row}.${field}`];
    const contextName = (at('contextName') ?? '').trim();
    if (at('remove') === 'on' || (at('new') === 'true' && contextName === '')) continue;
    constraints.push({ contextName, operator: at('operator') ?? '', values: at('values') ?? '', inverted: at('inverted') === 'on', caseInsensitive: at('caseInsensitive') === 'on' });
  }
  return { name: (form['name'] ?? '').trim(), title: (form['title'] ?? '').trim(), disabled: form['disabled'] === 'on', parameters, constraints, segments, variants: variantDraftsFromForm(form) };
}

/** The API body of a draft (before validation: the schema decides whether it is one). */
export function bodyOf(draft: StrategyDraft): Record<string, unknown> {
  // An empty groupId or stickiness means "not given": the domain fills its default.
  const parameters = Object.fromEntries(Object.entries(draft.parameters).filter(([key, value]) => value !== '' || (key !== 'groupId' && key !== 'stickiness')));
  return {
    name: draft.name,
    title: draft.title === '' ? null : draft.title,
    disabled: draft.disabled,
    parameters,
    constraints: draft.constraints.map((c) => {
      const list = takesList(c.operator);
      const base = { contextName: c.contextName, operator: c.operator, inverted: c.inverted, caseInsensitive: c.caseInsensitive };
      if (list) return { ...base, values: lines(c.values) };
      const value = lines(c.values)[0];
      return value === undefined ? base : { ...base, value };
    }),
    segments: draft.segments,
    variants: variantsBodyOf(draft.variants, false),
  };
}

/**
 * The form field a message of the API names (`"constraints.0.value": ...` → `constraints.0.values`), or null
 * when it names none the form has.
 */
export function fieldOfMessage(message: string): string | null {
  const path = /^"([^"]+)"/.exec(message)?.[1];
  if (path === undefined) return null;
  const constraint = /^constraints\.(\d+)(?:\.(\w+))?/.exec(path);
  if (constraint) {
    const row = Number(constraint[1]);
    const field = constraint[2] === 'contextName' || constraint[2] === 'operator' || constraint[2] === 'inverted' || constraint[2] === 'caseInsensitive' ? constraint[2] : 'values';
    return `constraints.${row}.${field}`;
  }
  if (path.startsWith('parameters.')) return path.split('.').slice(0, 2).join('.');
  if (path.startsWith('segments')) return 'segments';
  if (path.startsWith('variants')) return variantFieldOf(message);
  if (path === 'name' || path === 'title') return path;
  return null;
}

/** Every operator of the contract with the words the form shows. */
export const OPERATOR_LABELS: Record<ConstraintOperator, string> = {
  IN: 'is one of', NOT_IN: 'is not one of',
  STR_CONTAINS: 'contains', STR_STARTS_WITH: 'starts with', STR_ENDS_WITH: 'ends with',
  NUM_EQ: '= (number)', NUM_GT: '> (number)', NUM_GTE: '≥ (number)', NUM_LT: '< (number)', NUM_LTE: '≤ (number)',
  DATE_AFTER: 'after (date)', DATE_BEFORE: 'before (date)',
  SEMVER_EQ: '= (semver)', SEMVER_GT: '> (semver)', SEMVER_LT: '< (semver)',
};

export { CONSTRAINT_OPERATORS };
