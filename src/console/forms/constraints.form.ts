/**
 * The constraint rows of a strategy's form and a segment's (`constraints.<n>.contextName`, `.operator`,
 * `.values` one per line, `.inverted`, `.caseInsensitive`, `.remove`, and `.new` on the empty row that adds one),
 * read into drafts, made into the API's constraints, and the form field an API path about a constraint names.
 */
import * as v from 'valibot';
import { CONSTRAINT_OPERATORS, type ConstraintOperator } from '../../schemas/constraint.schema.js';
import type { Constraint } from '../../domain/types.js';
import { checkbox, rows, text, trimmed } from './fields.js';

/** One constraint as the form holds it: the values one per line. */
export const ConstraintRow = v.object({ contextName: trimmed(), operator: text(), values: text(), inverted: checkbox(), caseInsensitive: checkbox() });
export type ConstraintDraft = v.InferOutput<typeof ConstraintRow>;

/** The rows of a form: a removed row and the untouched new one (no context field) are left out. */
export const constraintRows = () => rows(ConstraintRow, (row, isNew) => isNew && row.contextName === '');

/** Operators that compare with a list of values; the others take one value (the first line). */
export const takesList = (operator: string): boolean => operator === 'IN' || operator === 'NOT_IN' || operator.startsWith('STR_');

const lines = (text: string): string[] => text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');

/** A stored constraint as a row. */
export const constraintDraftOf = (c: Constraint): ConstraintDraft => ({
  contextName: c.contextName, operator: c.operator, values: takesList(c.operator) ? (c.values ?? []).join('\n') : (c.value ?? ''),
  inverted: c.inverted === true, caseInsensitive: c.caseInsensitive === true,
});

/** The API's constraints of the rows (before validation: the schema decides whether they are). */
export function constraintsBodyOf(drafts: readonly ConstraintDraft[]): Record<string, unknown>[] {
  return drafts.map((c) => {
    const base = { contextName: c.contextName, operator: c.operator, inverted: c.inverted, caseInsensitive: c.caseInsensitive };
    if (takesList(c.operator)) return { ...base, values: lines(c.values) };
    const value = lines(c.values)[0];
    return value === undefined ? base : { ...base, value };
  });
}

const OWN_FIELDS = ['contextName', 'operator', 'inverted', 'caseInsensitive'];

/**
 * The form field an API path about a constraint names: `constraints.0.operator` is that select; every other part
 * of a constraint (`value`, `values.2`, the constraint as a whole) is its values box. Undefined for other paths.
 *
 * @example constraintField('constraints.1.value') // 'constraints.1.values'
 */
export function constraintField(path: string): string | undefined {
  const [head, row, part] = path.split('.');
  if (head !== 'constraints' || row === undefined || !/^\d+$/.test(row)) return undefined;
  return `constraints.${row}.${part !== undefined && OWN_FIELDS.includes(part) ? part : 'values'}`;
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
