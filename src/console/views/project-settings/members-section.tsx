/** @jsxImportSource hono/jsx */
/**
 * Who is in the project and with which role: change a role, remove a member (after a confirmation naming
 * them), add a user with a role. The at-least-one-Owner rule is the project's to decide: its message is shown.
 */
import type { AddMemberForm } from '../../forms/project.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, idOf, PostButton, refusedIn } from '../form-parts.js';
import type { SettingsMember, SettingsModel } from './settings-model.js';

const roleName = (model: SettingsModel, id: number) => model.roles.find((r) => r.id === id)?.name ?? `Role ${id}`;

function RoleForm({ model, member }: { model: SettingsModel; member: SettingsMember }) {
  const form = `member:${member.id}`;
  const id = idOf('member-role', String(member.id));
  return (
    <form method="post" action={`${model.base}/members/${member.id}`} class="inline-form member-role-form">
      <Csrf />
      <label for={id} class="sr-only">{`Role of ${member.label}`}</label>
      <select id={id} name="roleId" class="select-small" {...errorAttrs(model.error, form, 'roleId', id)}>
        {model.roles.map((r) => <option value={String(r.id)} selected={r.id === member.roleId}>{r.name}</option>)}
      </select>
      <button type="submit" class="button button-small">Save<span class="sr-only">{` the role of ${member.label}`}</span></button>
    </form>
  );
}

function Remove({ model, member }: { model: SettingsModel; member: SettingsMember }) {
  return (
    <details class="confirm">
      <summary class="button button-small button-danger-outline"><span>Remove<span class="sr-only">{` ${member.label}`}</span>…</span></summary>
      <div class="confirm-panel" role="group" aria-label={`Remove ${member.label}`}>
        <p>{`Remove ${member.label} from ${model.project.name}? They lose the ${roleName(model, member.roleId)} role here (their root role still applies).`}</p>
        <PostButton action={`${model.base}/members/${member.id}/remove`} fields={{ roleId: String(member.roleId) }} class="button button-danger" label={`Remove ${member.label}`} />
      </div>
    </details>
  );
}

function AddMember({ model }: { model: SettingsModel }) {
  const { error } = model;
  const sent = refusedIn<FormDraft<typeof AddMemberForm>>(error, 'add-member')?.draft;
  return (
    <form method="post" action={`${model.base}/members`} class="form-grid add-member" aria-label="Add a member">
      <Csrf />
      <div class="field-wide"><FormAlert error={error} form="add-member" /></div>
      <div class="field">
        <label for="member-user">User</label>
        <input id="member-user" name="user" required list="member-candidates" autocomplete="off" autocapitalize="none" spellcheck={false} value={sent?.user ?? ''}
          {...errorAttrs(error, 'add-member', 'user', 'member-user', 'member-user-hint')} />
        <datalist id="member-candidates">
          {model.candidates.map((u) => <option value={u.username ?? u.email ?? String(u.id)}>{u.label}</option>)}
        </datalist>
        <p class="hint" id="member-user-hint">A username, an email address or a user id. Groups are not supported by this service.</p>
        <FieldError error={error} form="add-member" field="user" id="member-user" />
      </div>
      <div class="field">
        <label for="member-role">Role</label>
        <select id="member-role" name="roleId" {...errorAttrs(error, 'add-member', 'roleId', 'member-role')}>
          {model.roles.map((r) => <option value={String(r.id)} selected={r.id === (sent?.roleId ?? 5)}>{r.name}</option>)}
        </select>
        <FieldError error={error} form="add-member" field="roleId" id="member-role" />
      </div>
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">Add member</button></div>
    </form>
  );
}

/** The members section. */
export function MembersSection({ model }: { model: SettingsModel }) {
  const may = model.may.access;
  return (
    <section class="card settings-section" id="members" aria-labelledby="members-title">
      <h2 id="members-title" class="section-title">Members</h2>
      <p class="muted">Owners may change the project and its members; Members work on flags; Readers read. Root Admins may do everything everywhere.</p>
      {model.members.map((m) => <FormAlert error={model.error} form={`member:${m.id}`} />)}
      {model.members.length === 0 ? <p class="muted">No members: only root roles give access.</p> : (
        <div class="table-scroll admin-table-scroll" tabindex={0} role="region" aria-label="Members">
          <table class="data-table member-table">
            <thead><tr><th scope="col">Member</th><th scope="col">Role</th>{may ? <th scope="col"><span class="sr-only">Actions</span></th> : null}</tr></thead>
            <tbody>
              {model.members.map((m) => (
                <tr>
                  <th scope="row">{m.label}{m.detail ? <span class="muted small member-detail">{m.detail}</span> : null}</th>
                  <td>{may ? <RoleForm model={model} member={m} /> : roleName(model, m.roleId)}</td>
                  {may ? <td><Remove model={model} member={m} /></td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {may ? <AddMember model={model} /> : null}
    </section>
  );
}
