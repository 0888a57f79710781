import { callerRights, principalLabel, projectRoleOf, type Principal } from '../auth/permissions.js';
import type { ProjectActor } from '../actors/actor-types.js';
import type { CallerRights } from '../domain/context.js';
import type { ProjectCommand, ProjectReplies } from '../domain/commands.js';
import type { Decision } from '../domain/errors.js';
import { failed, fromDecision, fromVersioned, type Result, type Versioned } from '../domain/result.js';
import type { Registry } from '../actors/registry.js';

/** What `principal` may do in the project `actor` serves (its role read from the committed members). */
export const rightsIn = (actor: ProjectActor, principal: Principal): CallerRights =>
  callerRights(principal, projectRoleOf(principal, actor.state.meta.members));

/**
 * Sends a command to the project `projectId`, on behalf of `principal`, and waits until it is durable. The
 * reply's type is the command's own (see `ProjectReplies`).
 *
 * @example const created = await sendToProject(registry, 'default', { type: 'flag.create', ... }, principal);
 */
export async function sendToProject<K extends ProjectCommand>(registry: Registry, projectId: string, command: K, principal: Principal): Promise<Result<ProjectReplies[K['type']]>> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  return fromDecision(await found.value.send(command, principalLabel(principal), rightsIn(found.value, principal)));
}

/** {@link sendToProject} for a command on one flag: the result carries the flag's version after it. */
export async function sendToFlag<K extends ProjectCommand>(
  registry: Registry, projectId: string, command: K, principal: Principal,
): Promise<Result<ProjectReplies[K['type']] extends Versioned<infer T> ? T : never>> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  const decision = await found.value.send(command, principalLabel(principal), rightsIn(found.value, principal));
  return fromVersioned(decision as Decision<unknown, Versioned<ProjectReplies[K['type']] extends Versioned<infer T> ? T : never>>);
}
