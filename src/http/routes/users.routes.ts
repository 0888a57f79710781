import type { ProjectActor, Registry } from '../../actors/registry.js';
import { PROJECT_OWNER, ROLES } from '../../domain/roles.js';
import type { ServiceState, User } from '../../domain/service-state.js';
import { CreateUserSchema } from '../../schemas/access.schema.js';
import { UserParamsSchema } from '../../schemas/params.schema.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';

/** A user as the API shows it (the stored record; it holds nothing secret). */
export const userView = (user: User) => ({
  id: user.id, name: user.name, email: user.email, username: user.username, rootRole: user.rootRole, createdAt: user.createdAt,
});

/** The user with that id, or a 404. */
export function requireUser(service: ServiceState, userId: number): User {
  const user = service.users[String(userId)];
  if (!user) throw apiError('NotFoundError', `Could not find user with id ${userId}`);
  return user;
}

/** Projects where `userId` is the only Owner: deleting the user would leave them without one. */
function soleOwnerOf(registry: Registry, userId: number): string[] {
  const key = String(userId);
  return registry.projectIds().filter((id) => {
    const members = registry.project(id)!.state.meta.members;
    return members[key] === PROJECT_OWNER && Object.values(members).filter((r) => r === PROJECT_OWNER).length === 1;
  });
}

const soleOwnerError = (userId: number, projects: string[]) => apiError(
  'ValidationError',
  `User ${userId} is the only Owner of project${projects.length > 1 ? 's' : ''} ${projects.map((p) => `"${p}"`).join(', ')}; give ${projects.length > 1 ? 'them' : 'it'} another Owner first`,
);

/**
 * Removes a user from every project, then deletes the user (their personal tokens go with them).
 * Projects are separate actors, so this cannot be one transaction: it checks every project first, then
 * purges; should a purge be refused anyway (an Owner demoted meanwhile), the purges already done are undone
 * and nothing is deleted. A sweep after the delete catches a membership granted while it ran.
 */
async function deleteUser(registry: Registry, userId: number, by: string): Promise<void> {
  const sole = soleOwnerOf(registry, userId);
  if (sole.length > 0) throw soleOwnerError(userId, sole);
  const key = String(userId);
  const purged: { actor: ProjectActor; roleId: number }[] = [];
  for (const id of registry.projectIds()) {
    const actor = registry.project(id)!;
    const roleId = actor.state.meta.members[key];
    if (roleId === undefined) continue;
    const decision = await actor.send({ type: 'member.purge', userId }, by);
    if (decision.ok) {
      purged.push({ actor, roleId });
      continue;
    }
    for (const undo of purged) await undo.actor.send({ type: 'member.add', userId, roleId: undo.roleId }, by);
    throw soleOwnerError(userId, [id]);
  }
  const deleted = await registry.service.send({ type: 'user.delete', userId }, by);
  if (!deleted.ok) throw apiError(deleted.error.kind, deleted.error.message);
  for (const id of registry.projectIds()) {
    const actor = registry.project(id)!;
    if (actor.state.meta.members[key] !== undefined) await actor.send({ type: 'member.purge', userId }, by);
  }
}

/** Users (API-DECISIONS "Projects, environments, users, roles, tokens"); every route needs `ADMIN`. */
export const userRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/api/admin/user-admin', tag: 'Users', permission: 'ADMIN',
    summary: 'Create a user (`email` or `username`, `name`, `rootRole` 1 Admin, 2 Editor, 3 Viewer; default 3)',
    body: CreateUserSchema, success: { status: 201, description: 'The user' }, errors: ['NameExistsError'],
    handle: async ({ c, body, runService }) => {
      const user = await runService<User>({
        type: 'user.create',
        user: { name: body.name ?? null, email: body.email ?? null, username: body.username ?? null, rootRole: body.rootRole },
      });
      return c.json(userView(user), 201);
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/user-admin', tag: 'Users', permission: 'ADMIN',
    summary: 'List users', success: { status: 200, description: '`{users, rootRoles}`' },
    handle: ({ c, deps }) => {
      const users = Object.values(deps.registry.service.state.users).sort((a, b) => a.id - b.id).map(userView);
      return c.json({ users, rootRoles: ROLES.filter((r) => r.type === 'root') });
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/user-admin/:userId', tag: 'Users', permission: 'ADMIN',
    summary: 'Get a user', params: UserParamsSchema, success: { status: 200, description: 'The user' }, errors: ['NotFoundError'],
    handle: ({ c, params, deps }) => c.json(userView(requireUser(deps.registry.service.state, params.userId))),
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/user-admin/:userId', tag: 'Users', permission: 'ADMIN',
    summary: 'Delete a user, their project memberships and personal tokens (refused while they are the only Owner of a project)',
    params: UserParamsSchema, success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: async ({ c, params, deps, by }) => {
      requireUser(deps.registry.service.state, params.userId);
      await deleteUser(deps.registry, params.userId, by);
      return c.body(null, 200);
    },
  }),
];
