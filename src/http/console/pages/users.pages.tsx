/** @jsxImportSource hono/jsx */
/**
 * The user pages (`/admin/users`, `/admin/users/:userId`, permission ADMIN): the list found by name, username or
 * email and paged by the server, creating a user (with a password, or a one-time link shown once), changing a
 * root role, resetting a password and deleting a user, over the use cases of the user-admin API.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import type { Principal } from '../../../auth/permissions.js';
import { ROOT_ADMIN } from '../../../domain/roles.js';
import { rootRoles } from '../../../queries/access.query.js';
import { userList, userRow } from '../../../queries/user-list.query.js';
import { CreateUserSchema, UpdateUserSchema } from '../../../schemas/access.schema.js';
import { DoneQuerySchema, fieldNamed, ListPageQuerySchema, type ListPageQuery } from '../../../schemas/admin-pages.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { UserParamsSchema } from '../../../schemas/params.schema.js';
import { createPasswordLink } from '../../../use-cases/password-links.use-cases.js';
import { setPassword } from '../../../use-cases/passwords.use-cases.js';
import { createUser, deleteUser, updateUser } from '../../../use-cases/users.use-cases.js';
import { ApiError } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { ownOrigin } from '../csrf.js';
import { frameOf, renderPage } from '../render.js';
import type { PageError } from '../views/flag/form-parts.js';
import { SecretOnce } from '../views/tokens/secret-once.js';
import { userLabel, UserListPage } from '../views/users/user-list-page.js';
import { UserPage } from '../views/users/user-page.js';

const PAGE = { status: 200, description: 'An HTML page' };
const REDIRECT = { status: 303, description: 'Back to the page, with a confirmation' };

/** The confirmations after a change (`?done=`): fixed texts, never one from the address. */
const NOTICES: Record<string, string> = {
  created: 'User created.', role: 'Root role saved.', deleted: 'User deleted.',
  password: 'Password set. Their sessions signed in with the old one have ended.',
};
const noticeOf = (done: string | undefined) => (done !== undefined && Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined);

const USER_FIELDS = ['name', 'username', 'email', 'rootRole', 'password'] as const;

function listPage(c: Context<AppEnv>, deps: AppDeps, query: ListPageQuery, status = 200, refused?: PageError): Response {
  const list = userList(deps.registry, query);
  return renderPage(c, <UserListPage frame={frameOf(c, deps)} list={list} q={query.q} roles={rootRoles()} notice={noticeOf(query.done)} refused={refused} />, status);
}

function userPage(c: Context<AppEnv>, deps: AppDeps, userId: number, options: { status?: number; notice?: string | undefined; refused?: PageError; secret?: { value: string; expiresAt: string } } = {}): Response {
  const row = userRow(deps.registry, userId);
  if (!row.ok) throw new ApiError(row.error);
  const name = userLabel(row.value.user);
  const secret = options.secret
    ? <SecretOnce assets={deps.console.assets} title={`One-time link for ${name}`} label="Link to set a password" value={options.secret.value} what="this link"
        use={`Send it to ${name} through a channel you trust. It works once, until ${options.secret.expiresAt.slice(0, 16).replace('T', ' ')} UTC; they choose a password there and are signed in.`} />
    : undefined;
  return renderPage(c, <UserPage frame={frameOf(c, deps)} row={row.value} roles={rootRoles()} notice={options.notice} refused={options.refused} secret={secret} />, options.status ?? 200);
}

/** The form's fields as sent (`_csrf` included). */
const formOf = (c: Context<AppEnv>): Record<string, string> => c.get('form') ?? {};
const given = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text.trim());
const statusOf = (kind: string) => (kind === 'NameExistsError' ? 409 : 400);

/** Makes a one-time link for `userId` and shows it, once, on their page. */
async function linkPage(c: Context<AppEnv>, deps: AppDeps, userId: number, principal: Principal, notice?: string): Promise<Response> {
  const link = await createPasswordLink(deps.registry, deps.tokenHasher, { userId }, principal);
  if (!link.ok) return userPage(c, deps, userId, { status: statusOf(link.error.kind), refused: { form: 'link', field: null, message: link.error.message, values: {} } });
  return userPage(c, deps, userId, { status: 201, notice, secret: { value: `${ownOrigin(c, deps)}/set-password#${link.value.secret}`, expiresAt: link.value.expiresAt } });
}

export const userPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/admin/users', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'The user list (`?q=` finds by name, username or email; `?page=`)', query: ListPageQuerySchema, success: PAGE,
    handle: ({ c, deps, query }) => listPage(c, deps, query),
  }),
  defineRoute({
    method: 'post', path: '/admin/users', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Create a user, with a password or a one-time link to set it (shown once)', success: { status: 201, description: 'The user\'s page with their link, or a redirect to it' },
    handle: async ({ c, deps, principal }) => {
      const form = formOf(c);
      const values = { name: form['name'] ?? '', username: form['username'] ?? '', email: form['email'] ?? '', rootRole: form['rootRole'] ?? '3', signIn: form['signIn'] ?? 'link' };
      const withPassword = values.signIn === 'password';
      const refuse = (status: number, message: string) =>
        listPage(c, deps, { q: '', page: 1 }, status, { form: 'new-user', field: fieldNamed(message, USER_FIELDS), message, values });
      const parsed = v.safeParse(CreateUserSchema, {
        name: given(values.name), username: given(values.username), email: given(values.email), rootRole: Number(values.rootRole) || values.rootRole,
        ...(withPassword ? { password: form['password'] ?? '' } : {}),
      });
      if (!parsed.success) return refuse(400, formatIssues(parsed.issues).message);
      const { name, email, username, rootRole, password } = parsed.output;
      const created = await createUser(deps.registry, { name: name ?? null, email: email ?? null, username: username ?? null, rootRole, password }, principal);
      if (!created.ok) return refuse(statusOf(created.error.kind), created.error.message);
      if (withPassword) return c.redirect(`/admin/users/${created.value.id}?done=created`, 303);
      return linkPage(c, deps, created.value.id, principal, NOTICES['created']);
    },
  }),
  defineRoute({
    method: 'get', path: '/admin/users/:userId', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'A user: root role, password, deletion', params: UserParamsSchema, query: DoneQuerySchema, success: PAGE,
    handle: ({ c, deps, params, query }) => userPage(c, deps, params.userId, { notice: noticeOf(query.done) }),
  }),
  defineRoute({
    method: 'post', path: '/admin/users/:userId/role', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Change a user\'s root role', params: UserParamsSchema, success: REDIRECT,
    handle: async ({ c, deps, params, principal }) => {
      const sent = formOf(c)['rootRole'] ?? '';
      const parsed = v.safeParse(UpdateUserSchema, { rootRole: Number(sent) || sent });
      const refuse = (status: number, message: string) => userPage(c, deps, params.userId, { status, refused: { form: 'role', field: 'rootRole', message, values: { rootRole: sent } } });
      if (!parsed.success) return refuse(400, formatIssues(parsed.issues).message);
      const updated = await updateUser(deps.registry, { userId: params.userId, rootRole: parsed.output.rootRole }, principal);
      if (!updated.ok) {
        if (updated.error.kind === 'NotFoundError') throw new ApiError(updated.error);
        return refuse(statusOf(updated.error.kind), updated.error.message);
      }
      // An Admin who gave up their own Admin role may no longer open this page.
      const self = principal.kind === 'user' && principal.user.id === params.userId && updated.value.rootRole !== ROOT_ADMIN;
      return c.redirect(self ? '/projects' : `/admin/users/${params.userId}?done=role`, 303);
    },
  }),
  defineRoute({
    method: 'post', path: '/admin/users/:userId/password', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Set a user\'s password', params: UserParamsSchema, success: REDIRECT,
    handle: async ({ c, deps, params, principal }) => {
      const set = await setPassword(deps.registry, { userId: params.userId, password: formOf(c)['password'] ?? '' }, principal);
      if (!set.ok) {
        if (set.error.kind === 'NotFoundError') throw new ApiError(set.error);
        return userPage(c, deps, params.userId, { status: 400, refused: { form: 'password', field: 'password', message: set.error.message, values: {} } });
      }
      return c.redirect(`/admin/users/${params.userId}?done=password`, 303);
    },
  }),
  defineRoute({
    // The user's own address: a reload of the answer (a GET) shows their page, never the link again.
    method: 'post', path: '/admin/users/:userId', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Make a one-time link for a user to set their password (shown once)', params: UserParamsSchema,
    success: { status: 201, description: 'The user\'s page with the link' },
    handle: ({ c, deps, params, principal }) => linkPage(c, deps, params.userId, principal),
  }),
  defineRoute({
    method: 'post', path: '/admin/users/:userId/delete', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Delete a user (refused for the last root Admin and a project\'s only Owner)', params: UserParamsSchema, success: REDIRECT,
    handle: async ({ c, deps, params, principal }) => {
      const deleted = await deleteUser(deps.registry, params, principal);
      if (!deleted.ok) {
        if (deleted.error.kind === 'NotFoundError') throw new ApiError(deleted.error);
        return userPage(c, deps, params.userId, { status: 400, refused: { form: 'delete', field: null, message: deleted.error.message, values: {} } });
      }
      return c.redirect('/admin/users?done=deleted', 303);
    },
  }),
];
