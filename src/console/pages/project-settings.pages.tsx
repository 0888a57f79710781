/**
 * A project's settings (`/projects/:projectId/settings`): the page, its name and description, its members and
 * deleting it; the environment forms are in project-environments.pages.tsx. Each form is declared
 * (`forms/project.forms.ts`) and calls the use case the API's route calls, with that route's permission; a
 * refusal shows the page again with the API's messages.
 */
import { allUsers } from '../../queries/access.query.js';
import { IntIdParamSchema, looseObject, ProjectIdSchema } from '../../schemas/common.schema.js';
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { changeMembership, grantMembership, removeMembership } from '../../use-cases/members.use-cases.js';
import { deleteProject, updateProject } from '../../use-cases/projects.use-cases.js';
import { inputOf } from '../../http/route.js';
import { buttonForm } from '../forms/flag.forms.js';
import { AddMemberForm, MemberForm, ProjectForm } from '../forms/project.forms.js';
import { definePage } from '../page.js';
import { projectEnvironmentPages } from './project-environments.pages.js';
import { refusedSettings, settingsDone, settingsPage } from './project-settings-render.js';

const SETTINGS = '/projects/:projectId/settings';
const BACK = { status: 303, description: 'Back to the settings page' };
const MemberParamsSchema = looseObject({ projectId: ProjectIdSchema, userId: IntIdParamSchema });

/** The user a form names by username, email or id (case-insensitive), or undefined. */
function userNamed(users: ReturnType<typeof allUsers>, text: string): number | undefined {
  const wanted = text.toLowerCase();
  if (/^\d+$/.test(wanted)) return users.find((u) => String(u.id) === wanted)?.id;
  return users.find((u) => u.username?.toLowerCase() === wanted || u.email?.toLowerCase() === wanted)?.id;
}

const ownSettingsPages = [
  definePage({
    method: 'get', path: SETTINGS, permission: 'READ', params: ProjectParamsSchema,
    summary: 'A project\'s settings: name, members, environments and default strategies, segments, delete',
    handle: ({ c, deps, params }) => settingsPage(c, deps, params.projectId),
  }),
  definePage({
    method: 'post', path: SETTINGS, permission: 'UPDATE_PROJECT', params: ProjectParamsSchema, form: ProjectForm, success: BACK,
    summary: 'Change a project\'s name and description',
    handle: ({ registry, params, form, principal }) => updateProject(registry, inputOf(params, form), principal),
    done: (_, { params }) => settingsDone(params.projectId, 'saved', 'general'),
    refused: refusedSettings,
  }),
  definePage({
    method: 'post', path: `${SETTINGS}/members`, permission: 'PROJECT_USER_ACCESS', params: ProjectParamsSchema, form: AddMemberForm, success: BACK,
    summary: 'Add a user (`user`: username, email or id) to the project with a role (`roleId`)',
    handle: ({ registry, params, form, principal }) => {
      const userId = userNamed(allUsers(registry), form.user);
      if (userId === undefined) return { ok: false, error: { kind: 'NotFoundError', message: `No user has the username, email or id "${form.user}"`, path: 'user' } };
      return grantMembership(registry, { projectId: params.projectId, userId, roleId: form.roleId }, principal);
    },
    done: (_, { params }) => settingsDone(params.projectId, 'added', 'members'),
    refused: refusedSettings,
  }),
  definePage({
    method: 'post', path: `${SETTINGS}/members/:userId`, permission: 'PROJECT_USER_ACCESS', params: MemberParamsSchema, form: MemberForm, success: BACK,
    summary: 'Change a member\'s role (`roleId`)',
    handle: ({ registry, params, form, principal }) => changeMembership(registry, inputOf(params, form), principal),
    done: (_, { params }) => settingsDone(params.projectId, 'changed', 'members'),
    refused: (call, refusal) => refusedSettings(call, refusal, `member:${call.params.userId}`),
  }),
  definePage({
    method: 'post', path: `${SETTINGS}/members/:userId/remove`, permission: 'PROJECT_USER_ACCESS', params: MemberParamsSchema, form: MemberForm, success: BACK,
    summary: 'Remove a member (`roleId`: the role they hold)',
    handle: ({ registry, params, form, principal }) => removeMembership(registry, inputOf(params, form), principal),
    done: (_, { params }) => settingsDone(params.projectId, 'removed', 'members'),
    refused: (call, refusal) => refusedSettings(call, refusal, `member:${call.params.userId}`),
  }),
  definePage({
    method: 'post', path: `${SETTINGS}/delete`, permission: 'UPDATE_PROJECT', params: ProjectParamsSchema, form: buttonForm('delete'),
    success: { status: 303, description: 'To the project list' }, summary: 'Delete a project without active flags',
    handle: ({ registry, params, principal }) => deleteProject(registry, params, principal),
    done: () => '/projects',
    refused: refusedSettings,
  }),
];

/** Every route of the settings page. */
export const projectSettingsPages = [...ownSettingsPages, ...projectEnvironmentPages];
