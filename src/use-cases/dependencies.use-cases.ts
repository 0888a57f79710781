/**
 * Flag dependencies (docs/api-decisions.md "Dependencies"): one command to the project's mailbox, which
 * decides Unleash's rules (no self, one level, same project, an active parent) atomically.
 */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { FeatureParams } from '../schemas/params.schema.js';
import type { Result } from '../domain/result.js';
import { sendToFlag } from './send-command.js';

/**
 * Makes `featureName` depend on `feature` (enabled by default, optionally on some of its variants); a
 * dependency on the same parent is replaced.
 *
 * @example await addDependency(registry, { projectId: 'default', featureName: 'child', feature: 'parent', enabled: true }, principal)
 */
export function addDependency(
  registry: Registry, input: FeatureParams & { feature: string; enabled: boolean; variants?: string[] | undefined }, principal: Principal,
): Promise<Result<null>> {
  const elsewhere = registry.projectIds().some((id) => id !== input.projectId && registry.project(id)?.state.flags.has(input.feature));
  const dependency = input.variants === undefined ? { feature: input.feature, enabled: input.enabled } : { feature: input.feature, enabled: input.enabled, variants: input.variants };
  return sendToFlag(registry, input.projectId, { type: 'dependency.add', feature: input.featureName, dependency, elsewhere }, principal);
}

/** Removes the dependency on `parent`, or every dependency of the flag when `parent` is absent. */
export function removeDependency(registry: Registry, input: FeatureParams & { parent?: string }, principal: Principal): Promise<Result<null>> {
  const command = input.parent === undefined
    ? { type: 'dependency.remove' as const, feature: input.featureName }
    : { type: 'dependency.remove' as const, feature: input.featureName, parent: input.parent };
  return sendToFlag(registry, input.projectId, command, principal);
}
