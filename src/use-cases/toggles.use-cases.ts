/**
 * Switching a flag in an environment (docs/admin-contract.md §4.13) and the environment's default strategy (§4.16).
 *
 * This module is the example to copy for a use case: a typed input that names what the request addresses
 * (validated by the route's schemas), the principal it acts for, one command to the mailbox that decides
 * it, and a typed result the route hands to its view. The rule itself ("enable only with an enabled
 * strategy, else add the default strategy, else 409") is not here: the domain asks the environment machine.
 */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { StrategyInput } from '../domain/types.js';
import type { Result } from '../domain/result.js';
import { sendToFlag, sendToProject } from './send-command.js';
import type { FlagEnvironmentRef } from './strategies.use-cases.js';

/**
 * `/on`: enables the flag in the environment; the result carries the flag's version after it.
 *
 * @example const result = await enableFlag(registry, { projectId: 'default', featureName: 'a', environment: 'development' }, principal);
 */
export function enableFlag(registry: Registry, input: FlagEnvironmentRef & { activateDisabled?: boolean }, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.enable', feature: input.featureName, environment: input.environment, activateDisabled: input.activateDisabled ?? false, ifMatch: input.ifMatch }, principal);
}

/** `/off`: disables the flag in the environment; the result carries the flag's version after it. */
export function disableFlag(registry: Registry, input: FlagEnvironmentRef, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.disable', feature: input.featureName, environment: input.environment, ifMatch: input.ifMatch }, principal);
}

/**
 * Sets the default strategy of one environment of a project, or of every one with `*`; waits first for a
 * delete or move of a segment it names (see `strategies.use-cases.ts`).
 */
export async function setDefaultStrategy(registry: Registry, input: { projectId: string; environment: string; strategy: StrategyInput }, principal: Principal): Promise<Result<StrategyInput>> {
  return registry.referencingSegments(input.projectId, input.strategy.segments ?? [], () =>
    sendToProject(registry, input.projectId, { type: 'default-strategy.set', environment: input.environment, strategy: input.strategy }, principal));
}
