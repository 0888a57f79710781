/** @jsxImportSource hono/jsx */
/**
 * The new-token form of the token list: a name, the type (client, frontend, admin), the projects and the
 * environment chosen from lists, an optional expiry. Refused, it opens again with the API's message next to the
 * field it names.
 */
import type { NewTokenForm as Form } from '../../forms/admin.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, refusedIn, type Refusal } from '../form-parts.js';

const FORM = 'new-token';

const TYPES = [
  { value: 'client', label: 'Client', about: 'Server-side SDKs read flags of its projects in one environment.' },
  { value: 'frontend', label: 'Frontend', about: 'Browser and mobile apps get evaluated flags through the frontend API.' },
  { value: 'admin', label: 'Admin', about: 'The whole admin API, every project and environment. Give it out sparingly.' },
] as const;

export interface NewTokenFormProps {
  projects: { id: string; name: string }[];
  environments: string[];
  refused: Refusal<unknown> | undefined;
}

/** The form, in a panel opened by its button (open when it was refused). */
export function NewTokenForm({ projects, environments, refused }: NewTokenFormProps) {
  const error = refusedIn<FormDraft<typeof Form>>(refused, FORM);
  const values = error?.draft;
  const type = values?.type ?? 'client';
  const chosen = (id: string) => values?.projects.includes(id) === true;
  const all = error === undefined || chosen('*');
  return (
    <details class="create-panel create-panel-header" open={error !== undefined}>
      <summary class="button button-primary">New token</summary>
      <form method="post" action="/admin/tokens" class="card form-grid token-form" aria-label="New API token">
        <Csrf />
        <div class="field-wide"><FormAlert error={error} form={FORM} /></div>
        <div class="field field-wide">
          <label for="token-name">Name</label>
          <input id="token-name" name="tokenName" required maxlength={100} value={values?.tokenName ?? ''} autocomplete="off" spellcheck={false} {...errorAttrs(error, FORM, 'tokenName', 'token-name', 'token-name-hint')} />
          <p class="hint" id="token-name-hint">Say who uses it, e.g. the application's name.</p>
          <FieldError error={error} form={FORM} field="tokenName" id="token-name" />
        </div>
        <fieldset class="field-wide choice" {...errorAttrs(error, FORM, 'type', 'token-type')}>
          <legend>Type</legend>
          {TYPES.map((t) => (
            <label class="check choice-option"><input type="radio" name="type" value={t.value} checked={type === t.value} />
              <span><strong>{t.label}</strong> <span class="muted">{t.about}</span></span></label>
          ))}
          <FieldError error={error} form={FORM} field="type" id="token-type" />
        </fieldset>
        <fieldset class="field choice project-choice" {...errorAttrs(error, FORM, 'projects', 'token-projects', 'token-projects-hint')}>
          <legend>Projects</legend>
          <p class="hint" id="token-projects-hint">Client and frontend tokens only; an admin token has all.</p>
          <label class="check"><input type="checkbox" name="projects" value="*" checked={all} /> All projects, present and future</label>
          <div class="choice-list">
            {projects.map((p) => <label class="check"><input type="checkbox" name="projects" value={p.id} checked={chosen(p.id)} /> {p.name}{p.name !== p.id ? <span class="muted"> ({p.id})</span> : null}</label>)}
          </div>
          <FieldError error={error} form={FORM} field="projects" id="token-projects" />
        </fieldset>
        <div class="field-column">
          <div class="field">
            <label for="token-environment">Environment</label>
            <select id="token-environment" name="environment" {...errorAttrs(error, FORM, 'environment', 'token-environment', 'token-environment-hint')}>
              {environments.map((e) => <option value={e} selected={values?.environment === e}>{e}</option>)}
            </select>
            <p class="hint" id="token-environment-hint">Client and frontend tokens read one environment.</p>
            <FieldError error={error} form={FORM} field="environment" id="token-environment" />
          </div>
          <div class="field">
            <label for="token-expires">Expires <span class="muted">(optional)</span></label>
            <input id="token-expires" name="expiresAt" type="date" value={values?.expiresAt ?? ''} {...errorAttrs(error, FORM, 'expiresAt', 'token-expires', 'token-expires-hint')} />
            <p class="hint" id="token-expires-hint">At the end of that day, UTC. Empty: never.</p>
            <FieldError error={error} form={FORM} field="expiresAt" id="token-expires" />
          </div>
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create token</button></div>
      </form>
    </details>
  );
}
