/** @jsxImportSource hono/jsx */
/** The flag page's header facts and its metadata form (description, type, stale, impression data). */
import { FLAG_TYPES } from '../../../schemas/feature.schema.js';
import type { MetadataForm as Metadata } from '../../forms/flag.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, refusedIn, When } from '../form-parts.js';
import type { FlagPageModel } from './flag-model.js';

const FORM = 'metadata';

/** The type, stale and archived marks beside the name (words, never colour alone). */
export function FlagMarks({ flag }: { flag: FlagPageModel['flag'] }) {
  return (
    <span class="marks">
      <span class="badge">{flag.type}</span>
      {flag.stale ? <span class="badge badge-warn">Stale</span> : null}
      {flag.archived ? <span class="badge badge-danger">Archived</span> : null}
    </span>
  );
}

function MetadataForm({ model }: { model: FlagPageModel }) {
  const { flag, error } = model;
  const sent = refusedIn<FormDraft<typeof Metadata>>(error, FORM)?.draft;
  const description = sent ? sent.description : flag.description;
  const type = sent ? sent.type : flag.type;
  const stale = sent ? sent.stale : flag.stale;
  const impression = sent ? sent.impressionData : flag.impressionData;
  return (
    <details class="edit-panel" open={sent !== undefined}>
      <summary class="button button-secondary">Edit details</summary>
      <form method="post" action={`${model.base}/metadata`} class="form-grid edit-form" aria-label="Flag details">
        <Csrf ifMatch={model.ifMatch} />
        <FormAlert error={error} form={FORM} />
        <div class="field field-wide">
          <label for="meta-description">Description</label>
          <textarea id="meta-description" name="description" rows={2} maxlength={2000} {...errorAttrs(error, FORM, 'description', 'meta-description')}>{description}</textarea>
          <FieldError error={error} form={FORM} field="description" id="meta-description" />
        </div>
        <div class="field">
          <label for="meta-type">Type</label>
          <select id="meta-type" name="type" {...errorAttrs(error, FORM, 'type', 'meta-type')}>
            {FLAG_TYPES.map((t) => <option value={t} selected={t === type}>{t}</option>)}
          </select>
          <FieldError error={error} form={FORM} field="type" id="meta-type" />
        </div>
        <div class="field checks">
          <label class="check"><input type="checkbox" name="stale" checked={stale} /> Stale</label>
          <label class="check"><input type="checkbox" name="impressionData" checked={impression} /> Impression data</label>
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Save details</button></div>
      </form>
    </details>
  );
}

/** The facts about the flag, and its metadata form for those who may change it. */
export function FlagDetails({ model }: { model: FlagPageModel }) {
  const { flag } = model;
  return (
    <section class="card" aria-labelledby="details-title">
      <div class="section-head">
        <h2 id="details-title">Details</h2>
      </div>
      {flag.description ? <p>{flag.description}</p> : <p class="muted">No description</p>}
      <dl class="facts">
        <div><dt>Project</dt><dd><a href={`/projects/${encodeURIComponent(model.project.id)}`}>{model.project.name}</a></dd></div>
        <div><dt>Type</dt><dd>{flag.type}</dd></div>
        <div><dt>Created</dt><dd><When at={flag.createdAt} /></dd></div>
        <div><dt>Last seen</dt><dd><When at={model.lastSeenAt} /></dd></div>
        <div><dt>Stale</dt><dd>{flag.stale ? 'Yes' : 'No'}</dd></div>
        <div><dt>Impression data</dt><dd>{flag.impressionData ? 'On' : 'Off'}</dd></div>
        {flag.archived ? <div><dt>Archived</dt><dd><When at={flag.archivedAt} /></dd></div> : null}
      </dl>
      {model.may.update && !flag.archived ? <MetadataForm model={model} /> : null}
    </section>
  );
}
