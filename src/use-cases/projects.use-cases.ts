/** Creating a project and choosing its environments. */
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { fail } from '../domain/errors.js';
import { PROJECT_OWNER, ROOT_ADMIN } from '../domain/roles.js';
import type { ServiceState } from '../domain/service-state.js';
import type { ProjectMeta } from '../domain/types.js';
import { failed, fromDecision, sendToProject, type Result } from './result.js';

/**
 * The first Owner of a new project: the user who creates it, or, for an admin token, the root Admin with
 * the lowest id. The last root Admin cannot be deleted (see `decide-service.ts`), so there always is one.
 */
function firstOwner(principal: Principal, service: ServiceState): Record<string, number> | null {
  if (principal.kind === 'user') return { [String(principal.user.id)]: PROJECT_OWNER };
  const admin = Object.values(service.users).filter((u) => u.rootRole === ROOT_ADMIN).sort((a, b) => a.id - b.id)[0];
  return admin ? { [String(admin.id)]: PROJECT_OWNER } : null;
}

/**
 * Creates a project connected to every enabled environment, owned by its creator. Runs in the access mailbox
 * so the Owner it picks cannot be deleted while the project is being created.
 */
export function createProject(registry: Registry, input: { id: string; name: string; description: string }, principal: Principal): Promise<Result<ProjectMeta>> {
  return registry.access.run(async () => {
    const service = registry.service.state;
    const members = firstOwner(principal, service);
    if (!members) return failed(fail('InvalidOperationError', 'There is no root Admin user to own the project; create one first'));
    const meta: ProjectMeta = {
      id: input.id, name: input.name, description: input.description, createdAt: new Date().toISOString(),
      environments: service.environments.filter((e) => e.enabled).map((e) => e.name), defaultStrategies: {}, members,
    };
    return fromDecision(await registry.createProject(meta, principalLabel(principal)));
  });
}

/** Connects an environment of the service to a project. */
export async function connectEnvironment(registry: Registry, input: { projectId: string; environment: string }, principal: Principal): Promise<Result<null>> {
  if (!registry.service.state.environments.some((e) => e.name === input.environment)) {
    return failed(fail('NotFoundError', `Could not find environment "${input.environment}"`));
  }
  return sendToProject(registry, input.projectId, { type: 'environment.connect', environment: input.environment }, principal);
}

/** Disconnects an environment from a project (its flag entries are kept, hidden). */
export function disconnectEnvironment(registry: Registry, input: { projectId: string; environment: string }, principal: Principal): Promise<Result<null>> {
  return sendToProject(registry, input.projectId, { type: 'environment.disconnect', environment: input.environment }, principal);
}
