/**
 * Writes to a project's flags (docs/admin-contract.md §4.3 to §4.8, §4.20, and revive). Each is one command to the
 * project's mailbox, where its rules are decided: names unique, archived flags unchanged, If-Match.
 */
import type { Principal } from '../auth/permissions.js';
import type { IfMatch } from '../domain/commands.js';
import type { Flag, FlagType } from '../domain/types.js';
import type { Operation } from 'fast-json-patch';
import type { Registry } from '../actors/registry.js';
import type { Result } from '../domain/result.js';
import { sendToFlag, sendToProject } from './send-command.js';

/** A flag a request names, and the version its caller last saw. */
export interface FlagRef {
  projectId: string;
  featureName: string;
  ifMatch?: IfMatch;
}

/** The metadata create and update take. */
export interface FlagMetadataInput {
  description: string;
  type: FlagType;
  impressionData: boolean;
}

export function createFlag(registry: Registry, input: { projectId: string; name: string } & FlagMetadataInput, principal: Principal): Promise<Result<Flag>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.create', name: input.name, description: input.description, flagType: input.type, impressionData: input.impressionData }, principal);
}

export function updateFlag(registry: Registry, input: FlagRef & FlagMetadataInput & { stale: boolean }, principal: Principal): Promise<Result<Flag>> {
  return sendToFlag(registry, input.projectId, {
    type: 'flag.update', feature: input.featureName, ifMatch: input.ifMatch,
    description: input.description, flagType: input.type, stale: input.stale, impressionData: input.impressionData,
  }, principal);
}

export function patchFlag(registry: Registry, input: FlagRef & { operations: Operation[] }, principal: Principal): Promise<Result<Flag>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.patch', feature: input.featureName, ifMatch: input.ifMatch, operations: input.operations }, principal);
}

export function archiveFlag(registry: Registry, input: FlagRef, principal: Principal): Promise<Result<null>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.archive', feature: input.featureName, ifMatch: input.ifMatch }, principal);
}

export function cloneFlag(registry: Registry, input: FlagRef & { name: string; replaceGroupId: boolean }, principal: Principal): Promise<Result<Flag>> {
  return sendToFlag(registry, input.projectId, { type: 'flag.clone', feature: input.featureName, ifMatch: input.ifMatch, name: input.name, replaceGroupId: input.replaceGroupId }, principal);
}

export function reviveFlags(registry: Registry, input: { projectId: string; features: string[] }, principal: Principal): Promise<Result<null>> {
  return sendToProject(registry, input.projectId, { type: 'flag.revive', features: input.features }, principal);
}

export function deleteArchivedFlags(registry: Registry, input: { projectId: string; features: string[] }, principal: Principal): Promise<Result<null>> {
  return sendToProject(registry, input.projectId, { type: 'flag.delete-archived', features: input.features }, principal);
}
