/** @jsxImportSource hono/jsx */
/** The new-flag form of a project's page (the create-flag use case), open again with the API's message when refused. */
import { FLAG_TYPES } from '../../../schemas/feature.schema.js';
import type { NewFlagDraft } from '../../forms/flag-table.forms.js';
import { Csrf, errorAttrs, FieldError, FormAlert, type Refusal } from '../form-parts.js';
import { newFlagUrl } from './flag-urls.js';

const FORM = 'new-flag';

/** The "New flag" disclosure and its form. */
export function NewFlagForm({ projectId, refused }: { projectId: string; refused?: Refusal<NewFlagDraft> | undefined }) {
  const values = refused?.draft ?? { name: '', type: 'release', description: '' };
  return (
    <details class="create-panel" open={refused !== undefined}>
      <summary class="button button-primary">New flag</summary>
      <form method="post" action={newFlagUrl(projectId)} class="card form-grid" aria-label="New flag">
        <Csrf />
        <FormAlert error={refused} form={FORM} class="alert alert-error field-wide" />
        <div class="field">
          <label for="flag-name">Name</label>
          <input id="flag-name" name="name" required maxlength={100} value={values.name} autocapitalize="none" spellcheck={false} {...errorAttrs(refused, FORM, 'name', 'flag-name')} />
          <FieldError error={refused} form={FORM} field="name" id="flag-name" />
        </div>
        <div class="field">
          <label for="flag-type">Type</label>
          <select id="flag-type" name="type" {...errorAttrs(refused, FORM, 'type', 'flag-type')}>
            {FLAG_TYPES.map((t) => <option value={t} selected={values.type === t}>{t}</option>)}
          </select>
          <FieldError error={refused} form={FORM} field="type" id="flag-type" />
        </div>
        <div class="field field-wide">
          <label for="flag-description">Description <span class="muted">(optional)</span></label>
          <input id="flag-description" name="description" maxlength={1000} value={values.description} {...errorAttrs(refused, FORM, 'description', 'flag-description')} />
          <FieldError error={refused} form={FORM} field="description" id="flag-description" />
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create flag</button></div>
      </form>
    </details>
  );
}
