/** Who is in a project, with which role (docs/admin-contract.md §4.17 to §4.19); the 400s of these routes are `[{msg}]`. */
import { membersOf, projectRoles } from '../../queries/access.query.js';
import { MembershipBodySchema } from '../../schemas/access.schema.js';
import { ProjectParamsSchema, ProjectUserRoleParamsSchema } from '../../schemas/params.schema.js';
import { changeMembership, grantMembership, removeMembership, type MembershipInput } from '../../use-cases/members.use-cases.js';
import type { Result } from '../../domain/result.js';
import type { Registry } from '../../actors/registry.js';
import type { Principal } from '../../auth/permissions.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { AccessView } from '../answers/views.js';

const MEMBER = '/api/admin/projects/:projectId/users/:userId/roles/:roleId';

/** One of the three project-user routes: the same path, checks and `[{msg}]` 400s; only the use case differs. */
function membershipRoute(
  method: 'post' | 'put' | 'delete', summary: string,
  useCase: (registry: Registry, input: MembershipInput, principal: Principal) => Promise<Result<null>>,
): RouteSpec {
  return defineRoute({
    method, path: MEMBER, tag: 'Projects', permission: 'PROJECT_USER_ACCESS', summary, params: ProjectUserRoleParamsSchema,
    body: MembershipBodySchema, bodyOptional: true, errorBody: 'msg-array',
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'MembershipError'],
    handle: ({ params, principal, registry }) => useCase(registry, params, principal),
  });
}

export const memberRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/access', tag: 'Projects', permission: 'READ',
    summary: 'List the members of a project with their roles', params: ProjectParamsSchema,
    success: { status: 200, description: '`{roles, users: [{id, name, email, username, roleId}], groups: []}`', schema: AccessView }, errors: ['NotFoundError'],
    handle: ({ c, params, registry }) => c.json({
      roles: projectRoles(),
      users: membersOf(registry, params.projectId).map(({ id, user, roleId }) => ({ id, name: user?.name ?? null, email: user?.email ?? null, username: user?.username ?? null, roleId })),
      groups: [],
    }),
  }),
  membershipRoute('post', 'Add a user to the project with a role (docs/admin-contract.md §4.17)', grantMembership),
  membershipRoute('put', "Change a member's role (a user not in the project is left alone; docs/admin-contract.md §4.18)", changeMembership),
  membershipRoute('delete', 'Remove a user from the project; they must hold the role named (docs/admin-contract.md §4.19)', removeMembership),
];
