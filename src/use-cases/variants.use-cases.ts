/** Flag-level variants (docs/admin-contract.md §4.14, §4.15), decided in the project's mailbox. */
import type { Operation } from 'fast-json-patch';
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { Variant } from '../domain/types.js';
import type { FlagRef } from './flags.use-cases.js';
import type { Result } from '../domain/result.js';
import { sendToFlag } from './send-command.js';

export function setVariants(registry: Registry, input: FlagRef & { variants: Variant[] }, principal: Principal): Promise<Result<Variant[]>> {
  return sendToFlag(registry, input.projectId, { type: 'variants.set', feature: input.featureName, ifMatch: input.ifMatch, variants: input.variants }, principal);
}

export function patchVariants(registry: Registry, input: FlagRef & { operations: Operation[] }, principal: Principal): Promise<Result<Variant[]>> {
  return sendToFlag(registry, input.projectId, { type: 'variants.patch', feature: input.featureName, ifMatch: input.ifMatch, operations: input.operations }, principal);
}
