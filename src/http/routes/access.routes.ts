/**
 * Access control: roles, users, API and personal tokens, project membership. Which permission each route
 * needs is in docs/permissions.md, checked against ROUTES by test/http/access/permissions-doc.test.ts.
 */
import { allRoles, roleById } from '../../queries/access.query.js';
import { IntIdParamSchema, looseObject } from '../../schemas/common.schema.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { RoleListView, RoleView } from '../answers/views.js';
import { memberRoutes } from './members.routes.js';
import { tokenRoutes } from './tokens.routes.js';
import { userRoutes } from './users.routes.js';

/** `/api/admin/roles/:roleId` */
const RoleParamsSchema = looseObject({ roleId: IntIdParamSchema });

/** The six built-in roles: root 1 Admin, 2 Editor, 3 Viewer; project 4 Owner, 5 Member, 6 Reader. */
export const roleRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/roles', tag: 'Roles', permission: 'READ',
    summary: 'List the built-in roles', success: { status: 200, description: '`{version: 1, roles: [{id, name, type, description}]}`', schema: RoleListView },
    handle: ({ c }) => c.json({ version: 1, roles: allRoles() }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/roles/:roleId', tag: 'Roles', permission: 'READ',
    summary: 'Get a role', params: RoleParamsSchema, success: { status: 200, description: 'The role', schema: RoleView }, errors: ['NotFoundError'],
    handle: ({ params }) => roleById(params.roleId),
    view: (role) => role,
  }),
];

export const accessRoutes: RouteSpec[] = [...roleRoutes, ...userRoutes, ...tokenRoutes, ...memberRoutes];
