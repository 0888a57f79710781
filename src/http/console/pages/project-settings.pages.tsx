/** @jsxImportSource hono/jsx */
/**
 * A project's settings (`/projects/:projectId/settings`): the page, its name and description, its members and
 * deleting it; the environment forms are in project-environments.pages.tsx. Each form calls the use case the
 * API's route calls, with that route's permission; a refusal shows the page again with the API's message.
 */
import * as v from 'valibot';
import type { Registry } from '../../../actors/registry.js';
import { allUsers } from '../../../queries/access.query.js';
import { IntIdParamSchema, looseObject, ProjectIdSchema } from '../../../schemas/common.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { ProjectParamsSchema } from '../../../schemas/params.schema.js';
import { UpdateProjectSchema } from '../../../schemas/project.schema.js';
import { changeMembership, grantMembership, removeMembership } from '../../../use-cases/members.use-cases.js';
import { deleteProject, updateProject } from '../../../use-cases/projects.use-cases.js';
import { defineRoute, type RouteSpec } from '../../route.js';
import { namedField } from './flag-page-render.js';
import { projectEnvironmentPages } from './project-environments.pages.js';
import { backToSettings, refusedSettings, settingsPage } from './project-settings-render.js';

const SETTINGS = '/projects/:projectId/settings';
const page = { tag: 'Console', authentication: 'session', page: true } as const;
const BACK = { status: 303, description: 'Back to the settings page' };
const MemberParamsSchema = looseObject({ projectId: ProjectIdSchema, userId: IntIdParamSchema });

/** The user a form names by username, email or id (case-insensitive), or undefined. */
function userNamed(registry: Registry, text: string): number | undefined {
  const wanted = text.trim().toLowerCase();
  if (/^\d+$/.test(wanted)) return registry.service.state.users[wanted]?.id;
  return allUsers(registry).find((u) => u.username?.toLowerCase() === wanted || u.email?.toLowerCase() === wanted)?.id;
}

/** A role id as the form sends it (the use case decides whether it is a project role). */
const roleOf = (text: string | undefined): number => (text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN);

const ownSettingsPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: SETTINGS, permission: 'READ', params: ProjectParamsSchema, success: { status: 200, description: 'An HTML page' },
    summary: 'A project\'s settings: name, members, environments and default strategies, segments, delete',
    handle: ({ c, deps, params }) => settingsPage(c, deps, params.projectId),
  }),
  defineRoute({
    ...page, method: 'post', path: SETTINGS, permission: 'UPDATE_PROJECT', params: ProjectParamsSchema, success: BACK,
    summary: 'Change a project\'s name and description',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = c.get('form') ?? {};
      const parsed = v.safeParse(UpdateProjectSchema, { name: (form['name'] ?? '').trim(), description: form['description'] ?? '' });
      if (!parsed.success) {
        const { message } = formatIssues(parsed.issues);
        return refusedSettings(c, deps, params.projectId, { form: 'general', field: namedField(message, ['name', 'description']), error: { kind: 'ValidationError', message } });
      }
      const saved = await updateProject(registry, { projectId: params.projectId, ...parsed.output }, principal);
      if (!saved.ok) return refusedSettings(c, deps, params.projectId, { form: 'general', field: namedField(saved.error.message, ['name', 'description']), error: saved.error });
      return backToSettings(c, params.projectId, 'saved', 'general');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${SETTINGS}/members`, permission: 'PROJECT_USER_ACCESS', params: ProjectParamsSchema, success: BACK,
    summary: 'Add a user (`user`: username, email or id) to the project with a role (`roleId`)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const form = c.get('form') ?? {};
      const userId = userNamed(registry, form['user'] ?? '');
      if (userId === undefined) {
        return refusedSettings(c, deps, params.projectId, { form: 'add-member', field: 'user', error: { kind: 'NotFoundError', message: `No user has the username, email or id "${(form['user'] ?? '').trim()}"` } });
      }
      const added = await grantMembership(registry, { projectId: params.projectId, userId, roleId: roleOf(form['roleId']) }, principal);
      if (!added.ok) return refusedSettings(c, deps, params.projectId, { form: 'add-member', field: /roleId|role with id/.test(added.error.message) ? 'roleId' : null, error: added.error });
      return backToSettings(c, params.projectId, 'added', 'members');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${SETTINGS}/members/:userId`, permission: 'PROJECT_USER_ACCESS', params: MemberParamsSchema, success: BACK,
    summary: 'Change a member\'s role (`roleId`)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const changed = await changeMembership(registry, { ...params, roleId: roleOf(c.get('form')?.['roleId']) }, principal);
      if (!changed.ok) return refusedSettings(c, deps, params.projectId, { form: `member:${params.userId}`, field: null, error: changed.error });
      return backToSettings(c, params.projectId, 'changed', 'members');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${SETTINGS}/members/:userId/remove`, permission: 'PROJECT_USER_ACCESS', params: MemberParamsSchema, success: BACK,
    summary: 'Remove a member (`roleId`: the role they hold)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const removed = await removeMembership(registry, { ...params, roleId: roleOf(c.get('form')?.['roleId']) }, principal);
      if (!removed.ok) return refusedSettings(c, deps, params.projectId, { form: `member:${params.userId}`, field: null, error: removed.error });
      return backToSettings(c, params.projectId, 'removed', 'members');
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${SETTINGS}/delete`, permission: 'UPDATE_PROJECT', params: ProjectParamsSchema, success: { status: 303, description: 'To the project list' },
    summary: 'Delete a project without active flags',
    handle: async ({ c, deps, params, principal, registry }) => {
      const deleted = await deleteProject(registry, params, principal);
      if (!deleted.ok) return refusedSettings(c, deps, params.projectId, { form: 'delete', field: null, error: deleted.error });
      return c.redirect('/projects', 303);
    },
  }),
];

/** Every route of the settings page. */
export const projectSettingsPages: RouteSpec[] = [...ownSettingsPages, ...projectEnvironmentPages];
