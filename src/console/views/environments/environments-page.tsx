/** @jsxImportSource hono/jsx */
/**
 * The environments page (`/admin/environments`): every environment in sort order with what uses it; for
 * those who may change them, move up and down (plain buttons, so the keyboard works without script), the type,
 * on and off, delete after a confirmation naming what uses it, and the new-environment form.
 */
import type { ListedEnvironment } from '../../../queries/environments.query.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { Options } from '../flag/constraint-editor.js';
import type { NewEnvironmentForm } from '../../forms/admin.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, idOf, PostButton, refusedIn, type Refusal } from '../form-parts.js';
import { Notice } from '../notice.js';

/** The types Unleash offers; a stored type outside them is kept and shown. */
export const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];

export interface EnvironmentsPageProps {
  environments: ListedEnvironment[];
  /** Whether the viewer may change environments (`ADMIN`). */
  mayChange: boolean;
  error?: Refusal<unknown> | undefined;
  notice?: string | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const envPath = (name: string) => `/admin/environments/${encodeURIComponent(name)}`;

function NewEnvironment({ error }: { error: Refusal<unknown> | undefined }) {
  const sent = refusedIn<FormDraft<typeof NewEnvironmentForm>>(error, 'create')?.draft;
  return (
    <details class="create-panel" open={sent !== undefined}>
      <summary class="button button-primary">New environment</summary>
      <form method="post" action="/admin/environments" class="card form-grid" aria-label="New environment">
        <Csrf />
        <div class="field-wide"><FormAlert error={error} form="create" /></div>
        <div class="field">
          <label for="env-new-name">Name</label>
          <input id="env-new-name" name="name" required maxlength={100} value={sent?.name ?? ''} autocapitalize="none" spellcheck={false}
            {...errorAttrs(error, 'create', 'name', 'env-new-name', 'env-new-name-hint')} />
          <p class="hint" id="env-new-name-hint">Used in URLs and API tokens; it cannot be changed later.</p>
          <FieldError error={error} form="create" field="name" id="env-new-name" />
        </div>
        <div class="field">
          <label for="env-new-type">Type</label>
          <select id="env-new-type" name="type" {...errorAttrs(error, 'create', 'type', 'env-new-type')}>
            <Options options={ENVIRONMENT_TYPES} current={sent?.type || 'development'} />
          </select>
          <FieldError error={error} form="create" field="type" id="env-new-type" />
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create environment</button></div>
      </form>
    </details>
  );
}

function TypeCell({ env, p }: { env: ListedEnvironment; p: EnvironmentsPageProps }) {
  if (!p.mayChange) return <>{env.type}</>;
  const form = `type:${env.name}`;
  const id = idOf('env-type', env.name);
  return (
    <form method="post" action={`${envPath(env.name)}/type`} class="inline-form env-type-form">
      <Csrf />
      <label for={id} class="sr-only">{`Type of ${env.name}`}</label>
      <select id={id} name="type" class="select-small" {...errorAttrs(p.error, form, 'type', id)}>
        <Options options={ENVIRONMENT_TYPES} current={env.type} />
      </select>
      <button type="submit" class="button button-small" aria-label={`Save the type of ${env.name}`}>Save</button>
      <FieldError error={p.error} form={form} field="type" id={id} />
    </form>
  );
}

function Usage({ env }: { env: ListedEnvironment }) {
  return (
    <ul class="env-usage" role="list">
      <li>{plural(env.projectCount, 'project')}</li>
      <li>{plural(env.apiTokenCount, 'API token')}</li>
      <li>{plural(env.enabledToggleCount, 'flag')} on</li>
    </ul>
  );
}

function Actions({ env, p, index, count }: { env: ListedEnvironment; p: EnvironmentsPageProps; index: number; count: number }) {
  return (
    <div class="env-actions">
      <PostButton action={`${envPath(env.name)}/move`} fields={{ direction: 'up' }} label="↑" ariaLabel={`Move ${env.name} up`} class="button button-small" />
      <PostButton action={`${envPath(env.name)}/move`} fields={{ direction: 'down' }} label="↓" ariaLabel={`Move ${env.name} down`} class="button button-small" />
      <PostButton action={`${envPath(env.name)}/${env.enabled ? 'off' : 'on'}`} label={env.enabled ? 'Turn off' : 'Turn on'} ariaLabel={`Turn ${env.name} ${env.enabled ? 'off' : 'on'}`} class="button button-small" />
      {env.protected ? null : (
        <details class="confirm">
          <summary class="button button-small button-danger-outline"><span>Delete<span class="sr-only">{` ${env.name}`}</span>…</span></summary>
          <div class="confirm-panel confirm-right" role="group" aria-label={`Delete ${env.name}`}>
            <p>{`Delete the environment "${env.name}"? It is connected to ${plural(env.projectCount, 'project')} and is the environment of ${plural(env.apiTokenCount, 'API token')}. An environment a flag or a token still uses cannot be deleted.`}</p>
            <PostButton action={`${envPath(env.name)}/delete`} class="button button-danger" label={`Delete ${env.name}`} />
          </div>
        </details>
      )}
      <span class="sr-only">{`${index + 1} of ${count}`}</span>
    </div>
  );
}

/** The whole page. */
export function EnvironmentsPage(p: EnvironmentsPageProps) {
  const { environments, mayChange, error } = p;
  return (
    <AdminFrame title="Environments" current="environments" lead="Where flags are evaluated. SDKs and API tokens name one environment; the console lists them in this order."
      actions={mayChange ? <NewEnvironment error={error} /> : undefined}>
      <Notice notice={p.notice} />
      {error && error.form !== 'create' && error.alert !== undefined ? <p class="alert alert-error" role="alert">{error.alert}</p> : null}
      {mayChange ? null : <p class="alert alert-info">You can read the environments; your roles do not allow changing them.</p>}
      <div class="card table-card">
        <div class="table-scroll admin-table-scroll" tabindex={0} role="region" aria-label="Environments, in sort order">
          <table class="data-table env-table">
            <thead>
              <tr><th scope="col">#</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Used by</th>{mayChange ? <th scope="col">Actions</th> : null}</tr>
            </thead>
            <tbody>
              {environments.map((env, index) => (
                <tr id={idOf('env', env.name)}>
                  <td class="muted">{index + 1}</td>
                  <th scope="row"><span class="env-name-cell">{env.name}</span>{env.protected ? <span class="badge">protected</span> : null}</th>
                  <td><TypeCell env={env} p={p} /></td>
                  <td><span class={env.enabled ? 'state state-on' : 'state state-off'}>{env.enabled ? 'On' : 'Off'}</span></td>
                  <td><Usage env={env} /></td>
                  {mayChange ? <td><Actions env={env} p={p} index={index} count={environments.length} /></td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </AdminFrame>
  );
}
