/** @jsxImportSource hono/jsx */
/** The context fields (`/admin/context-fields`): the list with usage counts, and the new-field form for those who may. */
import type { ContextFieldAnswer } from '../../../queries/definitions.query.js';
import type { ContextFieldDraft } from '../../forms/definitions.forms.js';
import type { Frame } from '../../layout.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { Csrf, errorAttrs, FieldError, FormAlert, type Refusal } from '../form-parts.js';
import { ListPager, ListToolbar, Notice, type ListPage, RowsScript } from './list-parts.js';
import { LegalValueRows } from './row-fields.js';

export const CONTEXT_FIELDS = '/admin/context-fields';

/** The page of one context field. */
export const contextFieldUrl = (name: string): string => `${CONTEXT_FIELDS}/${encodeURIComponent(name)}`;

export interface ContextFieldListProps {
  frame: Frame;
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
      {form === 'create' ? (
        <div class="field">
          <label for={id('name')}>Name</label>
          <input id={id('name')} name="name" required maxlength={100} value={values.name} autocapitalize="none" spellcheck={false}
            {...errorAttrs(error, form, 'name', id('name'), `${id('name')}-hint`)} />
          <p class="hint" id={`${id('name')}-hint`}>As SDKs send it in the context (for example <code>region</code>). It cannot be changed later.</p>
          <FieldError error={error} form={form} field="name" id={id('name')} />
        </div>
      ) : null}
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

function NewField({ frame, refused }: { frame: Frame; refused: ContextFieldListProps['refused'] }) {
  const error = refused;
  return (
    <details class="def-create" open={refused !== undefined}>
      <summary class="button button-primary">New context field</summary>
      <form method="post" action={CONTEXT_FIELDS} class="card form-grid" aria-label="New context field">
        <Csrf token={frame.csrf} />
        <div class="field-wide"><FormAlert error={error} form="create" /></div>
        <ContextFieldFields form="create" error={error} values={refused?.draft ?? { name: '', description: '', stickiness: false, legalValues: [] }} />
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create context field</button></div>
      </form>
    </details>
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
export function ContextFieldList({ frame, list, mayEdit, refused, notice }: ContextFieldListProps) {
  return (
    <AdminFrame frame={frame} title="Context fields" current="context-fields"
      lead="The fields of the context SDKs send, which constraints test. Legal values limit what a constraint may compare with.">
      <Notice text={notice} />
      {mayEdit ? <RowsScript frame={frame} /> : null}
      <ListToolbar base={CONTEXT_FIELDS} q={list.q} label="Search context fields">{mayEdit ? <NewField frame={frame} refused={refused} /> : null}</ListToolbar>
      {list.total === 0 ? (
        <div class="card empty"><h2>{list.q === '' ? 'No context fields' : 'No context field matches'}</h2><p class="muted">{list.q === '' ? 'Create one for each property your SDKs send.' : 'Try another search.'}</p></div>
      ) : (
        <div class="table-scroll" tabindex={0} role="region" aria-label="Context fields">
          <table class="data-table def-table">
            <thead><tr><th scope="col">Name</th><th scope="col">Description</th><th scope="col">Legal values</th><th scope="col">Stickiness</th><th scope="col">Used by</th></tr></thead>
            <tbody>{list.rows.map((field) => <Row field={field} />)}</tbody>
          </table>
        </div>
      )}
      <ListPager base={CONTEXT_FIELDS} list={list} noun={['context field', 'context fields']} />
    </AdminFrame>
  );
}
