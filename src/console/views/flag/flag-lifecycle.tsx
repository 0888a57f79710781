/** @jsxImportSource hono/jsx */
/**
 * Archive (after a confirmation naming the flag), revive and delete an archived flag, and clone under a new
 * name. Confirmations are `<details>` panels: no script needed, and the button inside names what it does.
 */
import type { CloneForm as Clone } from '../../forms/flag.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, PostButton, refusedIn } from '../form-parts.js';
import type { FlagPageModel } from './flag-model.js';

function Confirm({ model, label, action, question, danger }: { model: FlagPageModel; label: string; action: string; question: string; danger?: boolean }) {
  return (
    <details class="confirm">
      <summary class={danger ? 'button button-danger-outline' : 'button'}>{label}…</summary>
      <div class="confirm-panel" role="group" aria-label={label}>
        <p>{question}</p>
        <PostButton action={action} ifMatch={model.ifMatch} class={danger ? 'button button-danger' : 'button button-primary'} label={label} />
      </div>
    </details>
  );
}

function CloneForm({ model }: { model: FlagPageModel }) {
  const { error } = model;
  const sent = refusedIn<FormDraft<typeof Clone>>(error, 'clone')?.draft;
  return (
    <details class="confirm" open={sent !== undefined}>
      <summary class="button">Clone…</summary>
      <form method="post" action={`${model.base}/clone`} class="confirm-panel" aria-label="Clone this flag">
        <Csrf ifMatch={model.ifMatch} />
        <FormAlert error={error} form="clone" />
        <div class="field">
          <label for="clone-name">Name of the copy</label>
          <input id="clone-name" name="name" required maxlength={100} value={sent?.name ?? `${model.flag.name}-copy`} autocapitalize="none" spellcheck={false} {...errorAttrs(error, 'clone', 'name', 'clone-name')} />
          <FieldError error={error} form="clone" field="name" id="clone-name" />
        </div>
        <button type="submit" class="button button-primary">Clone flag</button>
      </form>
    </details>
  );
}

/** The flag's lifecycle actions, for those who may take them. */
export function FlagLifecycle({ model }: { model: FlagPageModel }) {
  const { flag, may } = model;
  if (!may.remove && !may.create) return null;
  return (
    <div class="actions" aria-label="Flag actions" role="group">
      <FormAlert error={model.error} form="lifecycle" />
      {!flag.archived && may.create ? <CloneForm model={model} /> : null}
      {!flag.archived && may.remove ? <Confirm model={model} label="Archive flag" action={`${model.base}/archive`} danger question={`Archive "${flag.name}"? SDKs stop receiving it; it can be revived later.`} /> : null}
      {flag.archived && may.remove ? <PostButton action={`${model.base}/revive`} ifMatch={model.ifMatch} class="button button-primary" label="Revive flag" /> : null}
      {flag.archived && may.remove ? <Confirm model={model} label="Delete flag" action={`${model.base}/delete`} danger question={`Delete "${flag.name}" for good? This cannot be undone.`} /> : null}
    </div>
  );
}
