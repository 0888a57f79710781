/** @jsxImportSource hono/jsx */
/** The context fields (`/admin/context-fields`): the list with usage counts, and the new-field form for those who may. */
import type { ContextFieldAnswer } from '../../../queries/definitions.query.js';
import type { ContextFieldDraft } from '../../forms/definitions.forms.js';
import { errorAttrs, FieldError, type Refusal } from '../form-parts.js';
import { DefinitionList, DefinitionNameField } from './definition-parts.js';
import type { SearchedPage as ListPage } from '../../../queries/paging.js';
import { LegalValueRows } from './row-fields.js';

export const CONTEXT_FIELDS = '/admin/context-fields';

/** The page of one context field. */
export const contextFieldUrl = (name: string): string => `${CONTEXT_FIELDS}/${encodeURIComponent(name)}`;

export interface ContextFieldListProps {
  list: ListPage<ContextFieldAnswer>;
  mayEdit: boolean;
  /** A refused new-field form, shown open with the API's messages. */
  refused?: Refusal<ContextFieldDraft> | undefined;
  notice?: string | undefined;
}

/** The fields of the new-field form and of a field's edit form (`name` only when creating). */
export function ContextFieldFields({ form, error, values }: { form: 'create' | 'edit'; error: Refusal<unknown> | undefined; values: ContextFieldDraft }) {
  const id = (field: string) => `cf-${form}-${field}`;
  return (
    <>
      {form === 'create' ? <DefinitionNameField error={error} id={id('name')} value={values.name} hint={<>As SDKs send it in the context (for example <code>region</code>). It cannot be changed later.</>} /> : null}
      <div class={form === 'create' ? 'field' : 'field field-wide'}>
        <label for={id('description')}>Description <span class="muted">(optional)</span></label>
        <input id={id('description')} name="description" maxlength={1000} value={values.description} {...errorAttrs(error, form, 'description', id('description'))} />
        <FieldError error={error} form={form} field="description" id={id('description')} />
      </div>
      <div class="field field-wide checks">
        <label class="check"><input type="checkbox" name="stickiness" checked={values.stickiness} /> Can be used for stickiness (gradual rollouts and variants)</label>
      </div>
      <LegalValueRows form={form} error={error} drafts={values.legalValues} />
    </>
  );
}

function Row({ field }: { field: ContextFieldAnswer }) {
  return (
    <tr>
      <th scope="row"><a class="flag-name" href={contextFieldUrl(field.name)}>{field.name}</a></th>
      <td class="def-desc">{field.description ?? <span class="muted">No description</span>}</td>
      <td>{field.legalValues.length === 0 ? <span class="muted">Any</span> : `${field.legalValues.length}`}</td>
      <td>{field.stickiness ? 'Yes' : <span class="muted">No</span>}</td>
      <td>{field.usedInFeatures === 0 ? <span class="muted">Unused</span> : `${field.usedInFeatures} ${field.usedInFeatures === 1 ? 'flag' : 'flags'} in ${field.usedInProjects} ${field.usedInProjects === 1 ? 'project' : 'projects'}`}</td>
    </tr>
  );
}

/** The context field list page. */
export function ContextFieldList({ list, mayEdit, refused, notice }: ContextFieldListProps) {
  return (
    <DefinitionList title="Context fields" current="context-fields" base={CONTEXT_FIELDS} list={list} notice={notice} rows={mayEdit}
      lead="The fields of the context SDKs send, which constraints test. Legal values limit what a constraint may compare with."
      create={mayEdit ? { label: 'New context field', submit: 'Create context field', refused, fields: <ContextFieldFields form="create" error={refused} values={refused?.draft ?? { name: '', description: '', stickiness: false, legalValues: [] }} /> } : undefined}
      noun={['context field', 'context fields']}
      empty={{ none: ['No context fields', 'Create one for each property your SDKs send.'], unmatched: ['No context field matches', 'Try another search.'] }}
      columns={['Name', 'Description', 'Legal values', 'Stickiness', 'Used by']} row={(field) => <Row field={field} />} />
  );
}
