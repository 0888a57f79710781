/** The service's environments. */
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import type { Environment } from '../domain/service-state.js';
import { fromDecision, type Result } from './result.js';

/**
 * Creates an environment. Without `sortOrder` it goes after every existing one; that place is decided in
 * the service mailbox, so concurrent creates get distinct places.
 */
export async function createEnvironment(registry: Registry, input: { name: string; type: string; sortOrder?: number | undefined }, principal: Principal): Promise<Result<Environment>> {
  const environment = { name: input.name, type: input.type, sortOrder: input.sortOrder, enabled: true, protected: false };
  return fromDecision(await registry.service.send({ type: 'environment.create', environment }, principalLabel(principal)));
}
