/** @jsxImportSource hono/jsx */
/** A project's name and description: a form for those who may change the project, else the facts. */
import type { ProjectForm } from '../../forms/project.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, refusedIn } from '../form-parts.js';
import type { SettingsModel } from './settings-model.js';

/** The general section. */
export function GeneralSection({ model }: { model: SettingsModel }) {
  const { project, error } = model;
  const sent = refusedIn<FormDraft<typeof ProjectForm>>(error, 'general')?.draft;
  return (
    <section class="card settings-section" id="general" aria-labelledby="general-title">
      <h2 id="general-title" class="section-title">General</h2>
      {model.may.update ? (
        <form method="post" action={model.base} class="form-grid" aria-label="Name and description">
          <Csrf />
          <div class="field-wide"><FormAlert error={error} form="general" /></div>
          <div class="field">
            <label for="settings-name">Name</label>
            <input id="settings-name" name="name" required maxlength={100} value={sent?.name ?? project.name} {...errorAttrs(error, 'general', 'name', 'settings-name')} />
            <FieldError error={error} form="general" field="name" id="settings-name" />
          </div>
          <div class="field">
            <label for="settings-id">Id</label>
            <input id="settings-id" value={project.id} readonly aria-describedby="settings-id-hint" />
            <p class="hint" id="settings-id-hint">Used in URLs and API tokens; it cannot be changed.</p>
          </div>
          <div class="field field-wide">
            <label for="settings-description">Description <span class="muted">(optional)</span></label>
            <textarea id="settings-description" name="description" rows={2} maxlength={1000} {...errorAttrs(error, 'general', 'description', 'settings-description')}>{sent?.description ?? project.description}</textarea>
            <FieldError error={error} form="general" field="description" id="settings-description" />
          </div>
          <div class="form-actions field-wide"><button type="submit" class="button button-primary">Save</button></div>
        </form>
      ) : (
        <dl class="facts">
          <div><dt>Name</dt><dd>{project.name}</dd></div>
          <div><dt>Id</dt><dd><code>{project.id}</code></dd></div>
          <div><dt>Description</dt><dd>{project.description || <span class="muted">No description</span>}</dd></div>
        </dl>
      )}
    </section>
  );
}
