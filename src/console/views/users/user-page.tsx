/** @jsxImportSource hono/jsx */
/**
 * One user (`/admin/users/:userId`): who they are, their root role (changed here), their password (set by the
 * admin, or a one-time link for them), and deleting them after a confirmation naming what goes with them.
 */
import type { Child } from 'hono/jsx';
import type { Role } from '../../../domain/roles.js';
import type { UserRow } from '../../../queries/user-list.query.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { Csrf, errorAttrs, FieldError, FormAlert, When, type Refusal } from '../form-parts.js';
import { userLabel } from './user-list-page.js';
import { Notice } from '../notice.js';

export interface UserPageProps {
  row: UserRow;
  roles: Role[];
  notice?: string | undefined;
  refused?: Refusal<unknown> | undefined;
  /** A secret just made for this user (a one-time link), shown once above everything else. */
  secret?: Child;
}

function Facts({ row, roles }: { row: UserRow; roles: Role[] }) {
  const { user } = row;
  return (
    <dl class="facts">
      <div><dt>Username</dt><dd>{user.username ?? '—'}</dd></div>
      <div><dt>Email</dt><dd>{user.email ?? '—'}</dd></div>
      <div><dt>Root role</dt><dd>{roles.find((r) => r.id === user.rootRole)?.name ?? user.rootRole}</dd></div>
      <div><dt>Password</dt><dd>{row.linkPending ? 'Link not used yet' : row.hasPassword ? 'Set' : 'None'}</dd></div>
      <div><dt>Created</dt><dd><When at={user.createdAt} /></dd></div>
      <div><dt>Last active</dt><dd>{row.lastActive ? <When at={row.lastActive} /> : '—'}</dd></div>
    </dl>
  );
}

function RoleForm({ base, row, roles, error }: { base: string; row: UserRow; roles: Role[]; error: Refusal<unknown> | undefined }) {
  return (
    <form method="post" action={`${base}/role`} class="card form-stack" aria-labelledby="role-title">
      <h2 id="role-title" class="section-title">Root role</h2>
      <Csrf />
      <div class="field">
        <label for="user-role">Role in every project</label>
        <select id="user-role" name="rootRole" {...errorAttrs(error, 'role', 'rootRole', 'user-role', 'user-role-hint')}>
          {roles.map((r) => <option value={String(r.id)} selected={r.id === row.user.rootRole}>{r.name}</option>)}
        </select>
        <p class="hint" id="user-role-hint">Admin: everything. Editor: a Member of every project. Viewer: a Reader of every project.</p>
        <FieldError error={error} form="role" field="rootRole" id="user-role" />
      </div>
      <div class="form-actions"><button type="submit" class="button button-primary">Save role</button></div>
    </form>
  );
}

function PasswordForms({ base, error }: { base: string; error: Refusal<unknown> | undefined }) {
  return (
    <section class="card form-stack" aria-labelledby="password-title">
      <h2 id="password-title" class="section-title">Reset password</h2>
      <p class="muted">Either way, their console sessions signed in with the old password end.</p>
      <form method="post" action={`${base}/password`} class="form-stack" aria-label="Set a password">
        <Csrf />
        <FormAlert error={error} form="password" />
        <div class="field">
          <label for="user-password">New password</label>
          <input id="user-password" name="password" type="password" autocomplete="new-password" maxlength={256} required {...errorAttrs(error, 'password', 'password', 'user-password', 'user-password-hint')} />
          <p class="hint" id="user-password-hint">At least 8 characters, not the username or email, not a common password.</p>
          <FieldError error={error} form="password" field="password" id="user-password" />
        </div>
        <div class="form-actions"><button type="submit" class="button">Set password</button></div>
      </form>
      <form method="post" action={base} class="form-stack link-form" aria-label="Make a one-time link">
        <Csrf />
        <FormAlert error={error} form="link" />
        <p>Or make a one-time link for them to choose a password themselves. It works once, for 24 hours; a new link replaces the last.</p>
        <div class="form-actions"><button type="submit" class="button">Make a one-time link</button></div>
      </form>
    </section>
  );
}

function DeleteUser({ base, name, error }: { base: string; name: string; error: Refusal<unknown> | undefined }) {
  return (
    <section class="card form-stack danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title" class="section-title">Delete user</h2>
      <FormAlert error={error} form="delete" />
      <details class="confirm">
        <summary class="button button-danger-outline">Delete user…</summary>
        <form method="post" action={`${base}/delete`} class="confirm-panel confirm-left" aria-label={`Delete ${name}`}>
          <Csrf />
          <p>Delete <strong>{name}</strong>? Their project memberships and personal access tokens are deleted with them, and their sessions end. This cannot be undone.</p>
          <button type="submit" class="button button-danger">Delete {name}</button>
        </form>
      </details>
    </section>
  );
}

/** The page. */
export function UserPage({ row, roles, notice, refused, secret }: UserPageProps) {
  const base = `/admin/users/${row.user.id}`;
  const name = userLabel(row.user);
  return (
    <AdminFrame title={name} current="users" lead={`User ${row.user.id}`}
      actions={<a class="button button-secondary" href="/admin/users">All users</a>}>
      <Notice notice={notice} />
      {secret}
      <div class="card"><Facts row={row} roles={roles} /></div>
      <div class="admin-columns">
        <RoleForm base={base} row={row} roles={roles} error={refused} />
        <PasswordForms base={base} error={refused} />
      </div>
      <DeleteUser base={base} name={name} error={refused} />
    </AdminFrame>
  );
}
