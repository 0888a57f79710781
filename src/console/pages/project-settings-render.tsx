/** @jsxImportSource hono/jsx */
/**
 * A project's settings page as an answer: its model from the queries the API's project, member, environment and
 * segment routes read, what the viewer may do from the permission table, and a refused form shown again with
 * the API's message. Shared by the page's GET and its form posts.
 */
import type { Context } from 'hono';
import { isAllowed, type Principal, roleIn } from '../../auth/permissions.js';
import { allUsers, membersOf, projectRoles } from '../../queries/access.query.js';
import { strategyDefinitions } from '../../queries/definitions.query.js';
import { projectEnvironments } from '../../queries/environments.query.js';
import { activeFlagCount } from '../../queries/flags.query.js';
import { allSegments } from '../../queries/segments.query.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { renderPage } from '../render.js';
import type { Refusal } from '../forms/form.js';
import type { PageCall } from '../page.js';
import type { SettingsModel } from '../views/project-settings/settings-model.js';
import { SettingsPage } from '../views/project-settings/settings-page.js';
import { done, noticeOf, type Done } from '../notices.js';

/** Users offered as suggestions in the add-member form: enough to pick from, bounded for large services. */
const CANDIDATES = 500;

/** The path of a project's settings page. */
export const settingsPath = (projectId: string): string => `/projects/${encodeURIComponent(projectId)}/settings`;

/** Back to the settings page after a change (a 303's address), with its confirmation and the section to scroll to. */
export function settingsDone(projectId: string, key: Done<'settings'>, anchor: string): string {
  return done(settingsPath(projectId), 'settings', key, anchor);
}

function model(c: Context<ConsoleEnv>, deps: ConsoleDeps, projectId: string, error: Refusal<unknown> | undefined): SettingsModel {
  const actor = c.get('actor');
  if (!actor) throw apiError('NotFoundError', `No project "${projectId}"`);
  const { state } = actor;
  const { registry } = deps;
  const principal = c.get('principal') as Principal;
  const role = roleIn(principal, state.meta.members);
  const members = membersOf(registry, projectId).map(({ id, user, roleId }) => ({
    id, roleId, label: user?.name ?? user?.username ?? user?.email ?? `User ${id}`, detail: user ? (user.username ?? user.email) : 'deleted user',
  }));
  const memberIds = new Set(members.map((m) => m.id));
  const segments = allSegments(registry);
  const active = activeFlagCount(state);
  return {
    project: { id: state.meta.id, name: state.meta.name, description: state.meta.description ?? '', activeFlags: active, archivedFlags: state.flags.size - active },
    members,
    roles: projectRoles().map((r) => ({ id: r.id, name: r.name })),
    candidates: allUsers(registry).filter((u) => !memberIds.has(u.id)).slice(0, CANDIDATES)
      .map((u) => ({ id: u.id, label: u.name ?? u.username ?? u.email ?? `User ${u.id}`, username: u.username ?? null, email: u.email ?? null })),
    environments: projectEnvironments(registry, state),
    projectSegments: segments.filter((s) => s.project === projectId),
    segments: segments.filter((s) => s.project === null || s.project === projectId).map((s) => ({ id: s.id, name: s.name })),
    contextFields: registry.service.state.contextFields.map((f) => f.name),
    strategyTypes: strategyDefinitions(registry).map((d) => ({ name: d.name, title: d.displayName ?? d.title ?? d.name })),
    may: { update: isAllowed(principal, 'UPDATE_PROJECT', role), access: isAllowed(principal, 'PROJECT_USER_ACCESS', role) },
    base: settingsPath(projectId),
    error,
    notice: noticeOf('settings', c.req.query('done')),
  };
}

/** The settings page, with a refused form when there is one. */
export function settingsPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, projectId: string, error?: Refusal<unknown>): Response {
  return renderPage(c, <SettingsPage model={model(c, deps, projectId, error)} />);
}

/** A refused form of the settings (`form` names it when its name depends on the path): the page again with its messages. */
export function refusedSettings(call: PageCall<{ projectId: string }>, refusal: Refusal<unknown>, form = refusal.form): Response {
  return settingsPage(call.c, call.deps, call.params.projectId, { ...refusal, form });
}
