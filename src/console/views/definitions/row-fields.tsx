/** @jsxImportSource hono/jsx */
/**
 * The row editors of the definition forms: a context field's legal values (value, description) and a strategy
 * definition's parameters (name, type, description, required). Every row has a "remove" box and one empty row
 * adds an entry, so the form works without script; `definitions.js` adds more empty rows on "Add another".
 * Field names are the API body's paths, so the API's message lands under the row it names.
 */
import { PARAMETER_TYPES } from '../../../schemas/definition.schema.js';
import type { LegalValueDraft, ParameterDraft } from '../../forms/definitions.forms.js';
import { errorAttrs, FieldError, idOf, type Refusal } from '../form-parts.js';

interface RowsProps<T> {
  /** Which form a refusal names (`create`, `edit`). */
  form: string;
  error: Refusal<unknown> | undefined;
  drafts: readonly T[];
}

function RowError({ error, form, fields, id }: { error: Refusal<unknown> | undefined; form: string; fields: string[]; id: (field: string) => string }) {
  const named = fields.find((f) => error?.form === form && error.fields[f] !== undefined);
  return named ? <FieldError error={error} form={form} field={named} id={id(named.split('.').pop()!)} /> : null;
}

function LegalValueRow({ p, row, draft, isNew }: { p: RowsProps<LegalValueDraft>; row: number; draft: LegalValueDraft; isNew: boolean }) {
  const name = (field: string) => `legalValues.${row}.${field}`;
  const id = (field: string) => idOf(p.form, 'lv', String(row), field);
  return (
    <div class="def-row def-row-legal" role="group" aria-label={isNew ? 'New legal value' : `Legal value ${row + 1}`} data-row={String(row)}>
      <input id={id('value')} name={name('value')} value={draft.value} maxlength={100} aria-label="Value" placeholder="Value" autocapitalize="none" spellcheck={false}
        {...errorAttrs(p.error, p.form, name('value'), id('value'))} />
      <input id={id('description')} name={name('description')} value={draft.description} maxlength={1000} aria-label="Description" placeholder="Description"
        {...errorAttrs(p.error, p.form, name('description'), id('description'))} />
      {isNew ? <span class="def-row-new muted small">New</span> : <label class="check small"><input type="checkbox" name={name('remove')} /> Remove</label>}
      <RowError error={p.error} form={p.form} fields={[name('value'), name('description')]} id={id} />
    </div>
  );
}

/** A context field's legal values. */
export function LegalValueRows(p: RowsProps<LegalValueDraft>) {
  const list = idOf(p.form, 'legal-values');
  return (
    <fieldset class="def-rows field-wide">
      <legend>Legal values <span class="muted">(optional)</span></legend>
      <p class="hint" id={`${list}-hint`}>Constraints on this field may then only use these values; the playground offers them. Empty rows are ignored.</p>
      <FieldError error={p.error} form={p.form} field="legalValues" id={list} />
      <div class="def-row def-row-legal def-row-head" aria-hidden="true"><span>Value</span><span>Description</span><span></span></div>
      <div id={list} class="def-row-list">
        {p.drafts.map((draft, row) => <LegalValueRow p={p} row={row} draft={draft} isNew={false} />)}
        <LegalValueRow p={p} row={p.drafts.length} draft={{ value: '', description: '' }} isNew />
      </div>
      <button type="button" class="button button-small button-secondary" data-add-row={list} hidden>Add another value</button>
    </fieldset>
  );
}

function ParameterRow({ p, row, draft, isNew }: { p: RowsProps<ParameterDraft>; row: number; draft: ParameterDraft; isNew: boolean }) {
  const name = (field: string) => `parameters.${row}.${field}`;
  const id = (field: string) => idOf(p.form, 'param', String(row), field);
  return (
    <div class="def-row def-row-param" role="group" aria-label={isNew ? 'New parameter' : `Parameter ${row + 1}`} data-row={String(row)}>
      <input id={id('name')} name={name('name')} value={draft.name} maxlength={100} aria-label="Name" placeholder="Name" autocapitalize="none" spellcheck={false}
        {...errorAttrs(p.error, p.form, name('name'), id('name'))} />
      <select id={id('type')} name={name('type')} aria-label="Type" {...errorAttrs(p.error, p.form, name('type'), id('type'))}>
        {PARAMETER_TYPES.map((t) => <option value={t} selected={t === draft.type}>{t}</option>)}
      </select>
      <input id={id('description')} name={name('description')} value={draft.description} maxlength={1000} aria-label="Description" placeholder="Description"
        {...errorAttrs(p.error, p.form, name('description'), id('description'))} />
      <label class="check small"><input type="checkbox" name={name('required')} checked={draft.required} /> Required</label>
      {isNew ? <span class="def-row-new muted small">New</span> : <label class="check small"><input type="checkbox" name={name('remove')} /> Remove</label>}
      <RowError error={p.error} form={p.form} fields={[name('name'), name('type'), name('description')]} id={id} />
    </div>
  );
}

/** A strategy definition's parameters. */
export function ParameterRows(p: RowsProps<ParameterDraft>) {
  const list = idOf(p.form, 'parameters');
  return (
    <fieldset class="def-rows field-wide">
      <legend>Parameters <span class="muted">(optional)</span></legend>
      <p class="hint">What a flag's strategy of this kind is given; an SDK's implementation of the strategy reads them. Empty rows are ignored.</p>
      <FieldError error={p.error} form={p.form} field="parameters" id={list} />
      <div class="def-row def-row-param def-row-head" aria-hidden="true"><span>Name</span><span>Type</span><span>Description</span><span></span><span></span></div>
      <div id={list} class="def-row-list">
        {p.drafts.map((draft, row) => <ParameterRow p={p} row={row} draft={draft} isNew={false} />)}
        <ParameterRow p={p} row={p.drafts.length} draft={{ name: '', type: 'string', description: '', required: false }} isNew />
      </div>
      <button type="button" class="button button-small button-secondary" data-add-row={list} hidden>Add another parameter</button>
    </fieldset>
  );
}
