/** @jsxImportSource hono/jsx */
/**
 * The new-user form of the user list: who they are, their root role, and how they get a password: one the
 * admin sets now, or a one-time link the admin hands on. Refused, it opens again with the API's message next
 * to the field it names.
 */
import type { Role } from '../../../domain/roles.js';
import type { NewUserForm as Form } from '../../forms/admin.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, refusedIn, type Refusal } from '../form-parts.js';

type NewUserDraft = FormDraft<typeof Form>;

const FORM = 'new-user';

function TextField({ name, label, type = 'text', error, values, hint, required }: {
  name: 'name' | 'username' | 'email' | 'password'; label: string; type?: string; error: Refusal<unknown> | undefined; values: NewUserDraft | undefined; hint?: string; required?: boolean;
}) {
  const id = `new-user-${name}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} type={type} value={type === 'password' ? '' : values?.[name] ?? ''} maxlength={type === 'password' ? 256 : 255} required={required}
        autocomplete={type === 'password' ? 'new-password' : 'off'} autocapitalize="none" spellcheck={false} {...errorAttrs(error, FORM, name, id, hint ? `${id}-hint` : undefined)} />
      {hint ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      <FieldError error={error} form={FORM} field={name} id={id} />
    </div>
  );
}

/** The form, in a panel opened by its button (open when it was refused). */
export function NewUserForm({ roles, refused }: { roles: Role[]; refused: Refusal<unknown> | undefined }) {
  const error = refusedIn<NewUserDraft>(refused, FORM);
  const values = error?.draft;
  const how = values?.signIn === 'password' ? 'password' : 'link';
  const role = values?.rootRole ?? '3';
  return (
    <details class="create-panel create-panel-header" open={error !== undefined}>
      <summary class="button button-primary">New user</summary>
      <form method="post" action="/admin/users" class="card form-grid" aria-label="New user">
        <Csrf />
        <div class="field-wide"><FormAlert error={error} form={FORM} /></div>
        <TextField name="name" label="Name" error={error} values={values} />
        <TextField name="username" label="Username" error={error} values={values} hint="Letters, digits, - _ . ~; used to sign in." />
        <TextField name="email" label="Email" type="email" error={error} values={values} hint="A username, an email, or both." />
        <div class="field">
          <label for="new-user-rootRole">Root role</label>
          <select id="new-user-rootRole" name="rootRole" {...errorAttrs(error, FORM, 'rootRole', 'new-user-rootRole')}>
            {roles.map((r) => <option value={String(r.id)} selected={String(r.id) === role}>{r.name}</option>)}
          </select>
          <FieldError error={error} form={FORM} field="rootRole" id="new-user-rootRole" />
        </div>
        <fieldset class="field-wide choice">
          <legend>Password</legend>
          <label class="check"><input type="radio" name="signIn" value="link" checked={how === 'link'} /> Make a one-time link for them to set it (works for 24 hours)</label>
          <label class="check"><input type="radio" name="signIn" value="password" checked={how === 'password'} /> Set it now</label>
        </fieldset>
        <div class="field-wide">
          <TextField name="password" label="Password (when set now)" type="password" error={error} values={values} hint="At least 8 characters, not the username or email, not a common password." />
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create user</button></div>
      </form>
    </details>
  );
}
