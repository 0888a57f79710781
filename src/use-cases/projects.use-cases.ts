/** Creating, changing and deleting a project, and choosing its environments. */
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import type { ProjectSettings } from '../domain/commands.js';
import { fail } from '../domain/errors.js';
import { PROJECT_OWNER, ROOT_ADMIN } from '../domain/roles.js';
import type { ServiceState } from '../domain/service-state.js';
import type { ProjectMeta, ProjectMode } from '../domain/types.js';

export type { ProjectMeta } from '../domain/types.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import { sendToProject } from './send-command.js';

/** The project Unleash and flagpole start with; it cannot be deleted. */
export const DEFAULT_PROJECT = 'default';

/**
 * The first Owner of a new project: the user who creates it, or, for an admin token, the root Admin with
 * the lowest id. The last root Admin cannot be deleted (see `domain/decide/service.ts`), so there always is one.
 */
function firstOwner(principal: Principal, service: ServiceState): Record<string, number> | null {
  if (principal.kind === 'user') return { [String(principal.user.id)]: PROJECT_OWNER };
  const admin = Object.values(service.users).filter((u) => u.rootRole === ROOT_ADMIN).sort((a, b) => a.id - b.id)[0];
  return admin ? { [String(admin.id)]: PROJECT_OWNER } : null;
}

/** Why an environment cannot be connected to a project: unknown (404) or disabled (409); null when it can. */
function unconnectable(service: ServiceState, environment: string) {
  const found = service.environments.find((e) => e.name === environment);
  if (!found) return fail('NotFoundError', `Could not find environment "${environment}"`);
  if (!found.enabled) return fail('InvalidOperationError', `Environment "${environment}" is disabled; enable it (POST /api/admin/environments/${environment}/on) before adding it to a project`);
  return null;
}

export interface NewProject {
  id: string;
  name: string;
  description: string;
  mode: ProjectMode;
  defaultStickiness: string;
  /** The environments to connect; absent: every enabled one (Unleash's default). */
  environments?: string[] | undefined;
}

/**
 * Creates a project connected to the environments asked for (every enabled one when none are named), owned
 * by its creator. Runs in the access mailbox, so the Owner it picks cannot be deleted and the environments
 * it names cannot be deleted or disabled while the project is being created.
 */
export function createProject(registry: Registry, input: NewProject, principal: Principal): Promise<Result<ProjectMeta>> {
  return registry.access.run(async () => {
    const service = registry.service.state;
    const members = firstOwner(principal, service);
    if (!members) return failed(fail('InvalidOperationError', 'There is no root Admin user to own the project; create one first'));
    let environments = service.environments.filter((e) => e.enabled).map((e) => e.name);
    if (input.environments) {
      const bad = input.environments.filter((e) => unconnectable(service, e) !== null);
      if (bad.length > 0) {
        return failed(fail('ValidationError', `These environments do not exist or are disabled: ${bad.map((e) => `'${e}'`).join(', ')}`));
      }
      environments = input.environments;
    }
    const meta: ProjectMeta = {
      id: input.id, name: input.name, description: input.description, createdAt: new Date().toISOString(),
      environments, defaultStrategies: {}, members, mode: input.mode, defaultStickiness: input.defaultStickiness,
    };
    return fromDecision(await registry.createProject(meta, principalLabel(principal)));
  });
}

/** Changes a project's name, description, mode and default stickiness (`PUT /api/admin/projects/:projectId`). */
export function updateProject(registry: Registry, input: { projectId: string; id?: string | undefined } & ProjectSettings, principal: Principal): Promise<Result<ProjectMeta>> {
  const { projectId, id, ...settings } = input;
  if (id !== undefined && id !== projectId) return Promise.resolve(failed(fail('ValidationError', `The body's id "${id}" is not the project of the path ("${projectId}")`)));
  return sendToProject(registry, projectId, { type: 'project.update', settings }, principal);
}

/**
 * Deletes a project as Unleash does: never `default`; refused while it has active flags; its archived flags,
 * the tokens scoped to it alone and its segments go with it; other tokens lose it from their projects. Runs in
 * the access mailbox, so no membership change or project creation interleaves.
 */
export function deleteProject(registry: Registry, input: { projectId: string }, principal: Principal): Promise<Result<null>> {
  return registry.access.run(async () => {
    const found = registry.find(input.projectId);
    if (!found.ok) return failed(found.error);
    if (input.projectId === DEFAULT_PROJECT) return failed(fail('InvalidOperationError', 'You can not delete the default project!'));
    const decision = await registry.deleteProject(input.projectId, principalLabel(principal));
    return decision.ok ? ok(null) : failed(decision.error);
  });
}

/**
 * Connects an environment of the service to a project. In the access mailbox, so an environment being
 * deleted is not connected behind the deletion's back.
 */
export function connectEnvironment(registry: Registry, input: { projectId: string; environment: string }, principal: Principal): Promise<Result<null>> {
  return registry.access.run(async () => {
    const found = registry.find(input.projectId);
    if (!found.ok) return failed(found.error);
    const refusal = unconnectable(registry.service.state, input.environment);
    if (refusal) return failed(refusal);
    return sendToProject(registry, input.projectId, { type: 'environment.connect', environment: input.environment }, principal);
  });
}

/** Disconnects an environment from a project: its flags' entries there, strategies included, are removed. */
export function disconnectEnvironment(registry: Registry, input: { projectId: string; environment: string }, principal: Principal): Promise<Result<null>> {
  return registry.access.run(() => sendToProject(registry, input.projectId, { type: 'environment.disconnect', environment: input.environment }, principal));
}
