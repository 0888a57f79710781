import { ROLES } from '../../domain/roles.js';
import type { ServiceState } from '../../domain/service-state.js';
import { MembershipBodySchema } from '../../schemas/access.schema.js';
import { ProjectParamsSchema, ProjectUserRoleParamsSchema } from '../../schemas/params.schema.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { requireUser } from './users.routes.js';

const MEMBER = '/api/admin/projects/:projectId/users/:userId/roles/:roleId';
const PROJECT_ROLES = ROLES.filter((r) => r.type === 'project');

/**
 * The checks every membership route makes before its command: the user exists (404), the role exists
 * (404) and is a project role (400 naming `roleId`; a root role is granted on the user, not in a project).
 * The at-least-one-Owner rule is not checked here but in the project's mailbox, so that parallel requests
 * are decided one after the other against the latest members.
 */
function checkGrant(service: ServiceState, userId: number, roleId: number): void {
  requireUser(service, userId);
  const role = ROLES.find((r) => r.id === roleId);
  if (!role) throw apiError('NotFoundError', `Could not find role with id ${roleId}`);
  if (role.type !== 'project') {
    throw apiError('ValidationError', `"roleId": must be a project role (${PROJECT_ROLES.map((r) => `${r.id} ${r.name}`).join(', ')}), got ${roleId}, the root role ${role.name}`);
  }
}

/**
 * One of the three project-user routes: the same path, checks and `[{msg}]` 400s; only the command differs.
 * The at-least-one-Owner rule is the command's, decided in the project's mailbox.
 */
function membershipRoute(method: 'post' | 'put' | 'delete', type: 'member.add' | 'member.change' | 'member.remove', summary: string): RouteSpec {
  return defineRoute({
    method, path: MEMBER, tag: 'Projects', permission: 'PROJECT_USER_ACCESS', summary, params: ProjectUserRoleParamsSchema,
    body: MembershipBodySchema, bodyOptional: true, errorBody: 'msg-array',
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'MembershipError'],
    handle: async ({ c, params, deps, run }) => {
      checkGrant(deps.registry.service.state, params.userId, params.roleId);
      await run({ type, userId: params.userId, roleId: params.roleId });
      return c.body(null, 200);
    },
  });
}

/** Seed 4.17 to 4.19: who is in a project, with which role; the 400s of these routes are `[{msg}]`. */
export const memberRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/access', tag: 'Projects', permission: 'READ',
    summary: 'List the members of a project with their roles', params: ProjectParamsSchema,
    success: { status: 200, description: '`{roles, users: [{id, name, email, username, roleId}], groups: []}`' }, errors: ['NotFoundError'],
    handle: ({ c, project, deps }) => {
      const users = deps.registry.service.state.users;
      const members = Object.entries(project().state.meta.members)
        .map(([id, roleId]) => {
          const user = users[id];
          return { id: Number(id), name: user?.name ?? null, email: user?.email ?? null, username: user?.username ?? null, roleId };
        })
        .sort((a, b) => a.id - b.id);
      return c.json({ roles: PROJECT_ROLES, users: members, groups: [] });
    },
  }),
  membershipRoute('post', 'member.add', 'Add a user to the project with a role (seed 4.17)'),
  membershipRoute('put', 'member.change', "Change a member's role (seed 4.18; a user not in the project is left alone)"),
  membershipRoute('delete', 'member.remove', 'Remove a user from the project; they must hold the role named (seed 4.19)'),
];
