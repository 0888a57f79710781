/** @jsxImportSource hono/jsx */
/** The user list (`/admin/users`): found by name, username or email, paged by the server, with the new-user form. */
import type { Role } from '../../../domain/roles.js';
import type { ListPage } from '../../../queries/paging.js';
import type { UserRow } from '../../../queries/user-list.query.js';
import type { Frame } from '../../layout.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { DoneNotice, ListPager, SearchForm } from '../admin/list-parts.js';
import { When, type Refusal } from '../form-parts.js';
import { NewUserForm } from './new-user-form.js';

export interface UserListProps {
  frame: Frame;
  list: ListPage<UserRow>;
  q: string;
  roles: Role[];
  notice?: string | undefined;
  refused?: Refusal<unknown> | undefined;
}

/** How a user is named in lists: their name, else username, else email. */
export const userLabel = (u: { id: number; name: string | null; username: string | null; email: string | null }): string =>
  u.name ?? u.username ?? u.email ?? `User ${u.id}`;

function PasswordState({ row }: { row: UserRow }) {
  if (row.linkPending) return <span class="badge badge-fair">Link sent</span>;
  return row.hasPassword ? <span class="badge">Set</span> : <span class="badge badge-warn">None</span>;
}

function Row({ row, roles }: { row: UserRow; roles: Role[] }) {
  const { user } = row;
  return (
    <tr>
      <th scope="row"><a href={`/admin/users/${user.id}`}>{userLabel(user)}</a></th>
      <td>{user.username ?? <span class="muted">—</span>}</td>
      <td>{user.email ?? <span class="muted">—</span>}</td>
      <td>{roles.find((r) => r.id === user.rootRole)?.name ?? user.rootRole}</td>
      <td><PasswordState row={row} /></td>
      <td><When at={user.createdAt} /></td>
      <td>{row.lastActive ? <When at={row.lastActive} /> : <span class="muted">—</span>}</td>
    </tr>
  );
}

/** The page. */
export function UserListPage({ frame, list, q, roles, notice, refused }: UserListProps) {
  return (
    <AdminFrame frame={frame} title="Users" current="users" lead="People who sign in to the console or use the admin API with a personal token."
      actions={<NewUserForm csrf={frame.csrf} roles={roles} refused={refused} />}>
      <DoneNotice text={notice} />
      <SearchForm action="/admin/users" q={q} label="Find users" placeholder="Name, username or email" />
      {list.total === 0
        ? <div class="card empty"><h2>{q === '' ? 'No users yet' : 'No user matches'}</h2><p class="muted">{q === '' ? 'Create one with "New user".' : `Nobody's name, username or email contains "${q}".`}</p></div>
        : (
          <div class="table-scroll" tabindex={0} role="region" aria-label="Users">
            <table class="data-table admin-table">
              <thead><tr><th scope="col">Name</th><th scope="col">Username</th><th scope="col">Email</th><th scope="col">Root role</th><th scope="col">Password</th><th scope="col">Created</th><th scope="col">Last active</th></tr></thead>
              <tbody>{list.rows.map((row) => <Row row={row} roles={roles} />)}</tbody>
            </table>
          </div>
        )}
      <ListPager base="/admin/users" q={q} list={list} noun={['user', 'users']} />
      <p class="hint">Last active: the latest use of a console session of theirs that the server still holds.</p>
    </AdminFrame>
  );
}
