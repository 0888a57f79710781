/** Writes to a flag's strategies in one environment (docs/admin-contract.md §4.9 to §4.12), decided in the project's mailbox. */
import type { Operation } from 'fast-json-patch';
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { Strategy, StrategyInput, StrategyOrder } from '../domain/types.js';
import type { FlagRef } from './flags.use-cases.js';
import type { Result } from '../domain/result.js';
import { sendToFlag } from './send-command.js';

/** A flag in one environment a request names. */
export interface FlagEnvironmentRef extends FlagRef {
  environment: string;
}

/** A strategy of a flag in one environment. */
export interface StrategyRef extends FlagEnvironmentRef {
  strategyId: string;
}

/*
 * Writes that may name segments are decided before or after a segment delete or move being decided at that
 * moment, on any node (`referencingSegments`), so they are not refused because of one that is then refused
 * itself, and no strategy ever names a deleted segment.
 */

export async function addStrategy(registry: Registry, input: FlagEnvironmentRef & { strategy: StrategyInput }, principal: Principal): Promise<Result<Strategy>> {
  return registry.referencingSegments(input.projectId, input.strategy.segments ?? [], () =>
    sendToFlag(registry, input.projectId, { type: 'strategy.add', feature: input.featureName, environment: input.environment, ifMatch: input.ifMatch, strategy: input.strategy }, principal));
}

export async function updateStrategy(registry: Registry, input: StrategyRef & { strategy: StrategyInput }, principal: Principal): Promise<Result<Strategy>> {
  return registry.referencingSegments(input.projectId, input.strategy.segments ?? [], () => sendToFlag(registry, input.projectId, {
    type: 'strategy.update', feature: input.featureName, environment: input.environment, strategyId: input.strategyId, ifMatch: input.ifMatch, strategy: input.strategy,
  }, principal));
}

/** Which segments a patch names is known only once applied: it waits for any fence. */
export async function patchStrategy(registry: Registry, input: StrategyRef & { operations: Operation[] }, principal: Principal): Promise<Result<Strategy>> {
  return registry.referencingSegments(input.projectId, undefined, () => sendToFlag(registry, input.projectId, {
    type: 'strategy.patch', feature: input.featureName, environment: input.environment, strategyId: input.strategyId, ifMatch: input.ifMatch, operations: input.operations,
  }, principal));
}

export function deleteStrategy(registry: Registry, input: StrategyRef, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, {
    type: 'strategy.delete', feature: input.featureName, environment: input.environment, strategyId: input.strategyId, ifMatch: input.ifMatch,
  }, principal);
}

/** Copies the flag's strategies from `fromEnvironment` (all, or `strategyIds`) to the environment named; answers the copies. */
export async function copyStrategies(registry: Registry, input: FlagEnvironmentRef & { fromEnvironment: string; strategyIds?: string[] | undefined }, principal: Principal): Promise<Result<Strategy[]>> {
  // The copies name the segments their originals name: a segment delete being decided is waited for, as for an add.
  const command = { type: 'strategy.copy' as const, feature: input.featureName, environment: input.environment, ifMatch: input.ifMatch, fromEnvironment: input.fromEnvironment };
  return registry.referencingSegments(input.projectId, undefined, () =>
    sendToFlag(registry, input.projectId, input.strategyIds ? { ...command, strategyIds: input.strategyIds } : command, principal));
}

/** Sets the `sortOrder` of the listed strategies (Unleash's `set-sort-order`); 404 for an id not in that environment. */
export function setStrategySortOrder(registry: Registry, input: FlagEnvironmentRef & { order: StrategyOrder[] }, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, {
    type: 'strategy.set-sort-order', feature: input.featureName, environment: input.environment, ifMatch: input.ifMatch, order: input.order,
  }, principal);
}
