/** @jsxImportSource hono/jsx */
/**
 * The user pages (`/admin/users`, `/admin/users/:userId`, permission ADMIN): the list found by name, username or
 * email and paged by the server, creating a user (with a password, or a one-time link shown once), changing a
 * root role, resetting a password and deleting a user, over the use cases of the user-admin API.
 */
import type { Context } from 'hono';
import { isAllowed, type Principal } from '../../auth/permissions.js';
import { rootRoles } from '../../queries/access.query.js';
import { userList, userRow } from '../../queries/user-list.query.js';
import { DoneQuerySchema, FIRST_LIST_PAGE, type ListPageQuery } from '../../schemas/admin-pages.schema.js';
import { UserParamsSchema } from '../../schemas/params.schema.js';
import { createPasswordLink } from '../../use-cases/password-links.use-cases.js';
import { setPassword } from '../../use-cases/passwords.use-cases.js';
import { createUser, deleteUser, updateUser } from '../../use-cases/users.use-cases.js';
import { ApiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { ownOrigin } from '../pipeline/csrf.js';
import { NewUserForm, RoleForm, SetPasswordForm } from '../forms/admin.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import { refusalOf, type Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { adminListPage } from './admin-list.js';
import { renderPage } from '../render.js';
import { SecretOnce } from '../views/tokens/secret-once.js';
import { userLabel, UserListPage } from '../views/users/user-list-page.js';
import { UserPage } from '../views/users/user-page.js';
import { done, noticeOf } from '../notices.js';

const REDIRECT = { status: 303, description: 'Back to the page, with a confirmation' };


function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, query: ListPageQuery, refused?: Refusal<unknown>): Response {
  const list = userList(deps.registry, query);
  return renderPage(c, <UserListPage list={list} q={query.q} roles={rootRoles()} notice={noticeOf('users', query.done)} refused={refused} />);
}

function userPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, userId: number, options: { status?: number; notice?: string | undefined; refused?: Refusal<unknown>; secret?: { value: string; expiresAt: string } } = {}): Response {
  const row = userRow(deps.registry, userId);
  if (!row.ok) throw new ApiError(row.error);
  const name = userLabel(row.value.user);
  const secret = options.secret
    ? <SecretOnce title={`One-time link for ${name}`} label="Link to set a password" value={options.secret.value} what="this link"
        use={`Send it to ${name} through a channel you trust. It works once, until ${options.secret.expiresAt.slice(0, 16).replace('T', ' ')} UTC; they choose a password there and are signed in.`} />
    : undefined;
  return renderPage(c, <UserPage row={row.value} roles={rootRoles()} notice={options.notice} refused={options.refused} secret={secret} />, options.status);
}

/** Makes a one-time link for `userId` and shows it, once, on their page (201); a refusal is the link form's. */
async function linkPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, userId: number, principal: Principal, notice?: string): Promise<Response> {
  const link = await createPasswordLink(deps.registry, deps.tokenHasher, { userId }, principal);
  if (!link.ok) {
    const refusal = refusalOf(LINK, link.error, {});
    return userPage(c, deps, userId, { status: refusal.status, refused: refusal });
  }
  return userPage(c, deps, userId, { status: 201, notice, secret: { value: `${ownOrigin(c, deps)}/set-password#${link.value.secret}`, expiresAt: link.value.expiresAt } });
}

/** A refused form of a user's page: the page again with its messages (a user that is gone: the "not found" page). */
const refusedOnUser = ({ c, deps, params }: { c: Context<ConsoleEnv>; deps: ConsoleDeps; params: { userId: number } }, refusal: Refusal<unknown>) => {
  if (refusal.error.kind === 'NotFoundError') throw new ApiError(refusal.error);
  return userPage(c, deps, params.userId, { refused: refusal });
};

const LINK = buttonForm('link');

export const userPages = [
  adminListPage('/admin/users', 'The user list (`?q=` finds by name, username or email; `?page=`)', listPage),
  definePage({
    method: 'post', path: '/admin/users', permission: 'ADMIN', form: NewUserForm,
    summary: 'Create a user, with a password or a one-time link to set it (shown once)', success: { status: 201, description: 'The user\'s page with their link, or a redirect to it' },
    handle: async ({ c, deps, form, draft, principal }) => {
      const { name, email, username, rootRole, password } = form;
      const created = await createUser(deps.registry, { name: name ?? null, email: email ?? null, username: username ?? null, rootRole, password }, principal);
      if (!created.ok || draft.signIn === 'password') return created;
      return linkPage(c, deps, created.value.id, principal, noticeOf('users', 'created'));
    },
    done: (created) => done(`/admin/users/${created.id}`, 'users', 'created'),
    refused: ({ c, deps }, refusal) => listPage(c, deps, FIRST_LIST_PAGE, refusal),
  }),
  definePage({
    method: 'get', path: '/admin/users/:userId', permission: 'ADMIN', params: UserParamsSchema, query: DoneQuerySchema, summary: 'A user: root role, password, deletion',
    handle: ({ c, deps, params, query }) => userPage(c, deps, params.userId, { notice: noticeOf('users', query.done) }),
  }),
  definePage({
    method: 'post', path: '/admin/users/:userId/role', permission: 'ADMIN', params: UserParamsSchema, form: RoleForm, success: REDIRECT,
    summary: 'Change a user\'s root role',
    handle: ({ registry, params, form, principal }) => updateUser(registry, { userId: params.userId, rootRole: form.rootRole }, principal),
    // An Admin who gave up their own Admin role may no longer open this page.
    done: (user, { params, principal }) =>
      (principal.kind === 'user' && principal.user.id === params.userId && !isAllowed({ ...principal, user }, 'ADMIN', undefined) ? '/projects' : done(`/admin/users/${params.userId}`, 'users', 'role')),
    refused: refusedOnUser,
  }),
  definePage({
    method: 'post', path: '/admin/users/:userId/password', permission: 'ADMIN', params: UserParamsSchema, form: SetPasswordForm, success: REDIRECT,
    summary: 'Set a user\'s password',
    handle: ({ registry, params, form, principal }) => setPassword(registry, { userId: params.userId, password: form.password }, principal),
    done: (_, { params }) => done(`/admin/users/${params.userId}`, 'users', 'password'),
    refused: refusedOnUser,
  }),
  definePage({
    // The user's own address: a reload of the answer (a GET) shows their page, never the link again.
    method: 'post', path: '/admin/users/:userId', permission: 'ADMIN', params: UserParamsSchema, form: LINK,
    summary: 'Make a one-time link for a user to set their password (shown once)', success: { status: 201, description: 'The user\'s page with the link' },
    handle: ({ c, deps, params, principal }) => linkPage(c, deps, params.userId, principal),
  }),
  definePage({
    method: 'post', path: '/admin/users/:userId/delete', permission: 'ADMIN', params: UserParamsSchema, form: buttonForm('delete'), success: REDIRECT,
    summary: 'Delete a user (refused for the last root Admin and a project\'s only Owner)',
    handle: ({ registry, params, principal }) => deleteUser(registry, params, principal),
    done: () => done('/admin/users', 'users', 'deleted'),
    refused: refusedOnUser,
  }),
];
