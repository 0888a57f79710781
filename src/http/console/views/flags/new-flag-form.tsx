/** @jsxImportSource hono/jsx */
/** The new-flag form of a project's page (the create-flag use case), open again with the API's message when refused. */
import { FLAG_TYPES } from '../../../../schemas/feature.schema.js';
import { newFlagUrl } from './flag-urls.js';

/** A refused new-flag form: what was typed, and the API's message with the field it names. */
export interface NewFlagRefusal {
  values: { name: string; type: string; description: string };
  error: { field: 'name' | 'type' | 'description' | null; message: string };
}

/** The "New flag" disclosure and its form. */
export function NewFlagForm({ projectId, csrf, refused }: { projectId: string; csrf: string | undefined; refused?: NewFlagRefusal | undefined }) {
  const values = refused?.values ?? { name: '', type: 'release', description: '' };
  const error = (field: 'name' | 'type' | 'description') =>
    refused?.error.field === field ? <p class="field-error" id={`flag-${field}-error`}>{refused.error.message}</p> : null;
  const invalid = (field: string) => (refused?.error.field === field ? { 'aria-invalid': 'true', 'aria-describedby': `flag-${field}-error` } : {});
  return (
    <details class="create-panel" open={refused !== undefined}>
      <summary class="button button-primary">New flag</summary>
      <form method="post" action={newFlagUrl(projectId)} class="card form-grid" aria-label="New flag">
        {csrf ? <input type="hidden" name="_csrf" value={csrf} /> : null}
        {refused && refused.error.field === null ? <p class="alert alert-error field-wide" role="alert">{refused.error.message}</p> : null}
        <div class="field">
          <label for="flag-name">Name</label>
          <input id="flag-name" name="name" required maxlength={100} value={values.name} autocapitalize="none" spellcheck={false} {...invalid('name')} />
          {error('name')}
        </div>
        <div class="field">
          <label for="flag-type">Type</label>
          <select id="flag-type" name="type" {...invalid('type')}>
            {FLAG_TYPES.map((t) => <option value={t} selected={values.type === t}>{t}</option>)}
          </select>
          {error('type')}
        </div>
        <div class="field field-wide">
          <label for="flag-description">Description <span class="muted">(optional)</span></label>
          <input id="flag-description" name="description" maxlength={1000} value={values.description} {...invalid('description')} />
          {error('description')}
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create flag</button></div>
      </form>
    </details>
  );
}
