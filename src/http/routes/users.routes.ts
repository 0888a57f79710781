/** Users (docs/api-decisions.md "Projects, environments, users, roles, tokens"); every route needs `ADMIN`. */
import type { User } from '../../domain/service-state.js';
import { allUsers, rootRoles, userById } from '../../queries/access.query.js';
import { ChangeOwnPasswordSchema, CreateUserSchema, SetPasswordSchema, UpdateUserSchema } from '../../schemas/access.schema.js';
import { UserParamsSchema } from '../../schemas/params.schema.js';
import { changeOwnPassword, setPassword } from '../../use-cases/passwords.use-cases.js';
import { accountOf } from '../../use-cases/sessions.use-cases.js';
import { createUser, deleteUser, updateUser } from '../../use-cases/users.use-cases.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { withinSignInLimits } from '../sign-in-limits.js';
import { UserListView, UserView } from '../views.js';

/** A user as the API shows it (the stored record; it holds nothing secret: password hashes are kept apart). */
export const userView = (user: User) => ({
  id: user.id, name: user.name, email: user.email, username: user.username, rootRole: user.rootRole, createdAt: user.createdAt,
});

export const userRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/api/admin/user-admin', tag: 'Users', permission: 'ADMIN',
    summary: 'Create a user (`email` or `username`, `name`, `rootRole` 1 Admin, 2 Editor, 3 Viewer; default 3; `password` optional: at least 8 characters, not the username or email, not a common one)',
    body: CreateUserSchema, success: { status: 201, description: 'The user', schema: UserView }, errors: ['NameExistsError'],
    handle: ({ body, principal, registry }) =>
      createUser(registry, { name: body.name ?? null, email: body.email ?? null, username: body.username ?? null, rootRole: body.rootRole, password: body.password }, principal),
    view: userView,
  }),
  defineRoute({
    method: 'get', path: '/api/admin/user-admin', tag: 'Users', permission: 'ADMIN',
    summary: 'List users', success: { status: 200, description: '`{users, rootRoles}`', schema: UserListView },
    handle: ({ c, registry }) => c.json({ users: allUsers(registry).map(userView), rootRoles: rootRoles() }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/user-admin/:userId', tag: 'Users', permission: 'ADMIN',
    summary: 'Get a user', params: UserParamsSchema, success: { status: 200, description: 'The user', schema: UserView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => userById(registry, params.userId),
    view: userView,
  }),
  defineRoute({
    method: 'put', path: '/api/admin/user-admin/:userId', tag: 'Users', permission: 'ADMIN',
    summary: 'Change a user\'s `name`, `email` or `rootRole` (the last root Admin keeps the Admin role)',
    params: UserParamsSchema, body: UpdateUserSchema, success: { status: 200, description: 'The user', schema: UserView }, errors: ['NotFoundError', 'NameExistsError'],
    handle: ({ params, body, principal, registry }) => updateUser(registry, inputOf(params, body), principal),
    view: userView,
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/user-admin/:userId', tag: 'Users', permission: 'ADMIN',
    summary: 'Delete a user, their project memberships and personal tokens (refused while they are the only Owner of a project, or the last root Admin)',
    params: UserParamsSchema, success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => deleteUser(registry, params, principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/user-admin/:userId/change-password', tag: 'Users', permission: 'ADMIN',
    summary: 'Set a user\'s password (at least 8 characters, not the username or email, not a common one); their console sessions end',
    params: UserParamsSchema, body: SetPasswordSchema, success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => setPassword(registry, { userId: params.userId, password: body.password }, principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/user/change-password', tag: 'Users', permission: 'OWN_ACCOUNT',
    summary: 'Change the calling user\'s own password (`{password, confirmPassword, oldPassword}`; a personal token or a console session): `oldPassword` is required when they have one (400 without it, 401 when wrong, 429 past the sign-in failure limits); their console sessions end',
    body: ChangeOwnPasswordSchema, success: { status: 200, description: 'No body' }, errors: ['AuthenticationRequired', 'TooManyRequests', 'Unavailable'],
    handle: ({ c, deps, body, principal, registry }) =>
      withinSignInLimits(c, deps, { account: principal.kind === 'user' ? accountOf(principal.user.id) : undefined, password: true }, () => changeOwnPassword(registry, body, principal)),
  }),
];
