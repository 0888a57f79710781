/** Bulk writes to the flags of one project (Unleash 6.10's bulk routes): one command, one record, all or nothing. */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { Result } from '../domain/result.js';
import { sendToProject } from './send-command.js';

/** The flags a bulk request lists in a project. */
export interface FlagsRef {
  projectId: string;
  features: string[];
}

/** Marks the listed flags stale or not stale; unknown and archived names are ignored. */
export function markFlagsStale(registry: Registry, input: FlagsRef & { stale: boolean }, principal: Principal): Promise<Result<null>> {
  return sendToProject(registry, input.projectId, { type: 'flags.stale', features: input.features, stale: input.stale }, principal);
}

/** Archives the listed flags; unknown and archived names are ignored. */
export function archiveFlags(registry: Registry, input: FlagsRef, principal: Principal): Promise<Result<null>> {
  return sendToProject(registry, input.projectId, { type: 'flags.archive', features: input.features }, principal);
}

/** `/on` (`enabled`) or `/off` for every listed flag in one environment. */
export function toggleFlags(registry: Registry, input: FlagsRef & { environment: string; enabled: boolean; activateDisabled?: boolean }, principal: Principal): Promise<Result<null>> {
  if (!input.enabled) return sendToProject(registry, input.projectId, { type: 'flags.disable', features: input.features, environment: input.environment }, principal);
  return sendToProject(registry, input.projectId, { type: 'flags.enable', features: input.features, environment: input.environment, activateDisabled: input.activateDisabled ?? false }, principal);
}
