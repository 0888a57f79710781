/** The service's environments: create, update, enable/disable, sort order, delete. */
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { fail } from '../domain/errors.js';
import type { Environment } from '../domain/service-state.js';
import type { StrategyInput } from '../domain/types.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';

/**
 * Creates an environment. Without `sortOrder` it goes after every existing one; that place is decided in
 * the service mailbox, so concurrent creates get distinct places.
 */
export async function createEnvironment(registry: Registry, input: { name: string; type: string; sortOrder?: number | undefined; enabled?: boolean | undefined }, principal: Principal): Promise<Result<Environment>> {
  const environment = { name: input.name, type: input.type, sortOrder: input.sortOrder, enabled: input.enabled ?? true, protected: false };
  return fromDecision(await registry.service.send({ type: 'environment.create', environment }, principalLabel(principal)));
}

/** Changes an environment's type and/or sort order (Unleash's `PUT /api/admin/environments/update/:name`). */
export async function updateEnvironment(registry: Registry, input: { name: string; type?: string | undefined; sortOrder?: number | undefined }, principal: Principal): Promise<Result<Environment>> {
  const command = { type: 'environment.update' as const, name: input.name, environmentType: input.type, sortOrder: input.sortOrder };
  return fromDecision(await registry.service.send(command, principalLabel(principal)));
}

/**
 * Enables or disables an environment. A disabled environment is not connected to new projects and cannot be
 * added to one; the projects that have it keep it, and its flags and tokens keep working (as in Unleash).
 * In the access mailbox, so it does not interleave with a project creation choosing its environments.
 */
export function toggleEnvironment(registry: Registry, input: { name: string; enabled: boolean }, principal: Principal): Promise<Result<null>> {
  return registry.access.run(async () => {
    const decision = await registry.service.send({ type: 'environment.toggle', name: input.name, enabled: input.enabled }, principalLabel(principal));
    return decision.ok ? ok(null) : failed(decision.error);
  });
}

/** New sort orders for the named environments; others keep theirs. Every name must exist (all or nothing). */
export async function sortEnvironments(registry: Registry, input: { order: { name: string; sortOrder: number }[] }, principal: Principal): Promise<Result<null>> {
  return fromDecision(await registry.service.send({ type: 'environment.sort', order: input.order }, principalLabel(principal)));
}

/**
 * Deletes an environment. Refused (409) while a flag of any project has an entry there (archived flags too),
 * while an API token is scoped to it, or when it is the last environment of a project; nothing changes then.
 * Runs in the access mailbox (connecting, creating projects and toggling run there too): each project
 * connected to it lets it go in its own mailbox, where no flag can be created in between, then the service
 * deletes it; a later refusal gives the projects it back, with their default strategies.
 */
export function deleteEnvironment(registry: Registry, input: { name: string }, principal: Principal): Promise<Result<null>> {
  return registry.access.run(async () => {
    const by = principalLabel(principal);
    const service = registry.service.state;
    const environment = service.environments.find((e) => e.name === input.name);
    if (!environment) return failed(fail('NotFoundError', `Could not find environment with name: ${input.name}`));
    // The service decides these again below; said here first so that no project lets the environment go in vain.
    if (environment.protected) return failed(fail('InvalidOperationError', `Environment "${input.name}" is protected and cannot be deleted`));
    const tokens = Object.values(service.tokens).filter((t) => t.environment === input.name).length;
    if (tokens > 0) return failed(fail('InvalidOperationError', `Environment "${input.name}" is the environment of ${tokens} API token(s); delete them first`));
    const damaged = [...registry.unavailable.keys()];
    if (damaged.length > 0) {
      return failed(fail('Unavailable', `Project(s) ${damaged.map((p) => `"${p}"`).join(', ')} could not be recovered, so whether they use environment "${input.name}" is unknown; repair them first`));
    }
    const connected = registry.projectIds().filter((id) => registry.project(id)!.state.meta.environments.includes(input.name));
    // Said at once for every project, before anything changes; the projects' own decisions below stay the rule.
    const used = connected
      .map((id) => ({ id, flags: registry.project(id)!.state.flags.size }))
      .filter((p) => p.flags > 0);
    if (used.length > 0) {
      const where = used.map((p) => `"${p.id}" (${p.flags} flag(s))`).join(', ');
      return failed(fail('InvalidOperationError', `Environment "${input.name}" is used by feature flags of project(s) ${where}, archived ones included; remove the environment from those projects first`));
    }
    const released: { id: string; defaultStrategy: StrategyInput | null }[] = [];
    const giveBack = async () => {
      for (const { id, defaultStrategy } of released) {
        await registry.project(id)?.send({ type: 'environment.connect', environment: input.name, restore: defaultStrategy ?? undefined }, by);
      }
    };
    for (const id of connected) {
      const actor = registry.project(id);
      if (!actor) continue;
      const decision = await actor.send({ type: 'environment.release', environment: input.name }, by);
      if (!decision.ok) {
        await giveBack();
        return failed(decision.error);
      }
      released.push({ id, defaultStrategy: decision.reply });
    }
    const deleted = await registry.service.send({ type: 'environment.delete', name: input.name }, by);
    if (!deleted.ok) {
      await giveBack();
      return failed(deleted.error);
    }
    return ok(null);
  });
}
