/**
 * The forms of the definition pages: a context field (description, stickiness, legal values as rows
 * `legalValues.<n>.value`), a tag type (description, colour, icon) and a custom strategy definition (title,
 * description, parameters as rows `parameters.<n>.name`). Each has a create form (with `name`) and an edit form,
 * validated by the API's schemas; a message about a row lands on that row's field.
 */
import * as v from 'valibot';
import {
  CreateContextFieldSchema, CreateStrategyDefinitionSchema, UpdateContextFieldSchema, UpdateStrategyDefinitionSchema,
} from '../../schemas/definition.schema.js';
import { CreateTagTypeSchema, UpdateTagTypeSchema } from '../../schemas/tag.schema.js';
import { checkbox, rows, text, trimmed } from './fields.js';
import { defineForm } from './form.js';

/** A trimmed text, `null` when empty (the API's "no description"). */
const orNull = (text: string): string | null => (text === '' ? null : text);

const LegalValueRow = v.object({ value: trimmed(), description: trimmed() });
export type LegalValueDraft = v.InferOutput<typeof LegalValueRow>;
const ParameterRow = v.object({ name: trimmed(), type: text('string'), description: trimmed(), required: checkbox() });
export type ParameterDraft = v.InferOutput<typeof ParameterRow>;

/** Rows left empty are dropped, as removed ones: a row's index is its index in the body. */
const legalValueRows = () => rows(LegalValueRow, (row) => row.value === '' && row.description === '');
const parameterRows = () => rows(ParameterRow, (row) => row.name === '' && row.description === '');

/**
 * The field an API path names among `fields`, a row's (`legalValues.1` → `legalValues.1.value`) included.
 *
 * @example rowsField(['name', 'legalValues'])('legalValues.2') // 'legalValues.2.value'
 */
function rowsField(fields: readonly string[]): (path: string) => string | undefined {
  return (path) => {
    const [head, row, part] = path.split('.');
    if (head === undefined || !fields.includes(head)) return undefined;
    if (row === undefined || !/^\d+$/.test(row)) return head;
    if (head !== 'legalValues' && head !== 'parameters') return head;
    return `${head}.${row}.${part ?? (head === 'legalValues' ? 'value' : 'name')}`;
  };
}

const ContextFieldFields = v.object({ name: trimmed(), description: trimmed(), stickiness: checkbox(), legalValues: legalValueRows() });
export type ContextFieldDraft = v.InferOutput<typeof ContextFieldFields>;
const contextFieldBody = (draft: ContextFieldDraft) => ({
  description: orNull(draft.description), stickiness: draft.stickiness,
  legalValues: draft.legalValues.map((l) => (l.description === '' ? { value: l.value } : l)),
});

/** A new context field. */
export const NewContextFieldForm = defineForm({
  name: 'create', fields: ContextFieldFields, body: (draft) => ({ name: draft.name, ...contextFieldBody(draft) }),
  schema: CreateContextFieldSchema, field: rowsField(['name', 'description', 'legalValues']),
});

/** A context field saved (its name is the page's). */
export const ContextFieldForm = defineForm({
  name: 'edit', fields: ContextFieldFields, body: contextFieldBody, schema: UpdateContextFieldSchema, field: rowsField(['description', 'legalValues']),
});

const TagTypeFields = v.object({ name: trimmed(), description: trimmed(), color: trimmed(), icon: trimmed() });
export type TagTypeDraft = v.InferOutput<typeof TagTypeFields>;
const tagTypeBody = (draft: TagTypeDraft) => ({ description: draft.description, color: draft.color, icon: orNull(draft.icon) });

/** A new tag type. */
export const NewTagTypeForm = defineForm({
  name: 'create', fields: TagTypeFields, body: (draft) => ({ name: draft.name, ...tagTypeBody(draft) }),
  schema: CreateTagTypeSchema, field: rowsField(['name', 'description', 'color', 'icon']),
});

/** A tag type saved. */
export const TagTypeForm = defineForm({
  name: 'edit', fields: TagTypeFields, body: tagTypeBody, schema: UpdateTagTypeSchema, field: rowsField(['description', 'color', 'icon']),
});

const StrategyDefinitionFields = v.object({ name: trimmed(), title: trimmed(), description: trimmed(), parameters: parameterRows() });
export type StrategyDefinitionDraft = v.InferOutput<typeof StrategyDefinitionFields>;
const definitionBody = (draft: StrategyDefinitionDraft) => ({ title: orNull(draft.title), description: orNull(draft.description), parameters: draft.parameters });

/** A new custom strategy definition. */
export const NewStrategyDefinitionForm = defineForm({
  name: 'create', fields: StrategyDefinitionFields, body: (draft) => ({ name: draft.name, ...definitionBody(draft) }),
  schema: CreateStrategyDefinitionSchema, field: rowsField(['name', 'title', 'description', 'parameters']),
});

/** A custom strategy definition saved. */
export const StrategyDefinitionForm = defineForm({
  name: 'edit', fields: StrategyDefinitionFields, body: definitionBody, schema: UpdateStrategyDefinitionSchema, field: rowsField(['title', 'description', 'parameters']),
});
