/** @jsxImportSource hono/jsx */
/** The user list (`/admin/users`): found by name, username or email, paged by the server, with the new-user form. */
import type { Role } from '../../../domain/roles.js';
import type { ListPage } from '../../../queries/paging.js';
import type { UserRow } from '../../../queries/user-list.query.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { ListEmpty, ListRows, ListSearch, withQuery } from '../list.js';
import { When, type Refusal } from '../form-parts.js';
import { NewUserForm } from './new-user-form.js';
import { Notice } from '../notice.js';

export interface UserListProps {
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
export function UserListPage({ list, q, roles, notice, refused }: UserListProps) {
  return (
    <AdminFrame title="Users" current="users" lead="People who sign in to the console or use the admin API with a personal token."
      actions={<NewUserForm roles={roles} refused={refused} />}>
      <Notice notice={notice} />
      <ListSearch action="/admin/users" q={q} id="list-q" class="list-search" label="Find users" placeholder="Name, username or email" maxlength={200} clear />
      <ListRows list={list} label="Users" class="admin-table"
        empty={<ListEmpty title={q === '' ? 'No users yet' : 'No user matches'} card><p class="muted">{q === '' ? 'Create one with "New user".' : `Nobody's name, username or email contains "${q}".`}</p></ListEmpty>}
        columns={['Name', 'Username', 'Email', 'Root role', 'Password', 'Created', 'Last active']}
        row={(row) => <Row row={row} roles={roles} />} href={(n) => withQuery('/admin/users', { q, page: n })} noun={['user', 'users']} />
      <p class="hint">Last active: the latest use of a console session of theirs that the server still holds.</p>
    </AdminFrame>
  );
}
