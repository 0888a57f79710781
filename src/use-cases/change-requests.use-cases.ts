/**
 * Writing change requests (docs/api-decisions.md "Change requests"): each a command to the project's mailbox,
 * which decides every rule. What is checked here is only what the permission table says of the caller: each
 * change needs the permission of the write it stands for, and requested reviewers must be users who may
 * approve.
 */
import type { Registry } from '../actors/registry.js';
import { isAllowed, noAccessMessage, projectRoleOf, type Permission, type Principal } from '../auth/permissions.js';
import type { ChangeAction, ChangeBody, ChangeRequest } from '../domain/change-request.js';
import { fail } from '../domain/errors.js';
import { failed, type Result } from '../domain/result.js';
import { sendToProject } from './send-command.js';

/** A change request of a project, as the path names it. */
export interface RequestRef {
  projectId: string;
  id: number;
}

/** The permission of the write each kind of change stands for (a project segment's: `UPDATE_PROJECT`). */
export const PERMISSION_OF_CHANGE: Readonly<Record<ChangeAction, Permission>> = Object.freeze({
  updateEnabled: 'UPDATE_FEATURE_ENVIRONMENT',
  addStrategy: 'CREATE_FEATURE_STRATEGY',
  updateStrategy: 'UPDATE_FEATURE_STRATEGY',
  deleteStrategy: 'DELETE_FEATURE_STRATEGY',
  reorderStrategy: 'UPDATE_FEATURE_STRATEGY',
  patchVariant: 'UPDATE_FEATURE_VARIANTS',
  archiveFeature: 'DELETE_FEATURE',
  addDependency: 'UPDATE_FEATURE',
  deleteDependency: 'UPDATE_FEATURE',
  updateSegment: 'UPDATE_PROJECT',
  deleteSegment: 'UPDATE_PROJECT',
});

/** The 403 of a caller who may not make one of `changes` directly (so may not propose it either), or null. */
function changeRefusal(registry: Registry, projectId: string, environment: string, changes: readonly ChangeBody[], principal: Principal) {
  const members = registry.project(projectId)?.state.meta.members ?? {};
  const role = projectRoleOf(principal, members);
  const missing = changes.map((c) => PERMISSION_OF_CHANGE[c.action]).find((permission) => !isAllowed(principal, permission, role));
  return missing ? fail('NoAccessError', noAccessMessage(missing, environment)) : null;
}

/**
 * Turns change requests on or off for one environment of a project (`requiredApprovals` 1 to 10). Run in the
 * segment mailbox: a project segment's write reads these settings there (`segments.use-cases.ts`).
 */
export function configureChangeRequests(registry: Registry, input: { projectId: string; environment: string; enabled: boolean; requiredApprovals?: number | undefined }, principal: Principal): Promise<Result<null>> {
  return registry.segmentWrites.run(() => sendToProject(registry, input.projectId, {
    type: 'change-request.configure', environment: input.environment, enabled: input.enabled, requiredApprovals: input.requiredApprovals,
  }, principal));
}

/**
 * Adds changes to the caller's open request for the environment, or to a new draft; answers the request.
 *
 * @example await addChanges(registry, { projectId: 'default', environment: 'production', changes: [{ feature: 'a', action: 'updateEnabled', payload: { enabled: true } }] }, principal)
 */
export function addChanges(registry: Registry, input: { projectId: string; environment: string; changes: ChangeBody[] }, principal: Principal): Promise<Result<ChangeRequest>> {
  const refused = changeRefusal(registry, input.projectId, input.environment, input.changes, principal);
  if (refused) return Promise.resolve(failed(refused));
  return sendToProject(registry, input.projectId, { type: 'change-request.add', environment: input.environment, changes: input.changes }, principal);
}

/** Replaces one change of a request (it gets a new id). */
export function editChange(registry: Registry, input: RequestRef & { changeId: number; change: ChangeBody }, principal: Principal): Promise<Result<ChangeRequest>> {
  const environment = registry.project(input.projectId)?.state.changeRequests.requests.get(input.id)?.environment ?? '';
  const refused = changeRefusal(registry, input.projectId, environment, [input.change], principal);
  if (refused) return Promise.resolve(failed(refused));
  return sendToProject(registry, input.projectId, { type: 'change-request.edit-change', id: input.id, changeId: input.changeId, change: input.change }, principal);
}

export function discardChange(registry: Registry, input: RequestRef & { changeId: number }, principal: Principal): Promise<Result<ChangeRequest>> {
  return sendToProject(registry, input.projectId, { type: 'change-request.discard-change', id: input.id, changeId: input.changeId }, principal);
}

/** Deletes a draft. */
export function discardRequest(registry: Registry, input: RequestRef, principal: Principal): Promise<Result<null>> {
  return sendToProject(registry, input.projectId, { type: 'change-request.discard', id: input.id }, principal);
}

export function setTitle(registry: Registry, input: RequestRef & { title: string }, principal: Principal): Promise<Result<ChangeRequest>> {
  return sendToProject(registry, input.projectId, { type: 'change-request.set-title', id: input.id, title: input.title }, principal);
}

export function addComment(registry: Registry, input: RequestRef & { text: string }, principal: Principal): Promise<Result<ChangeRequest>> {
  return sendToProject(registry, input.projectId, { type: 'change-request.comment', id: input.id, text: input.text }, principal);
}

/**
 * Replaces the requested reviewers: every id must be a user who may approve in the project (a 400 naming
 * those who may not, or do not exist).
 */
export function setReviewers(registry: Registry, input: RequestRef & { reviewers: number[] }, principal: Principal): Promise<Result<ChangeRequest>> {
  const members = registry.project(input.projectId)?.state.meta.members ?? {};
  const users = registry.service.state.users;
  const unable = input.reviewers.filter((id) => {
    const user = Object.hasOwn(users, String(id)) ? users[String(id)] : undefined;
    if (!user) return true;
    const reviewer: Principal = { kind: 'user', user, tokenName: '' };
    return !isAllowed(reviewer, 'APPROVE_CHANGE_REQUEST', projectRoleOf(reviewer, members));
  });
  if (unable.length > 0) {
    return Promise.resolve(failed(fail('ValidationError', `"reviewers": ${unable.join(', ')} ${unable.length === 1 ? 'is not a user who may' : 'are not users who may'} approve change requests of project "${input.projectId}" (see GET /api/admin/projects/${input.projectId}/change-requests/available-reviewers/:environment)`)));
  }
  return sendToProject(registry, input.projectId, { type: 'change-request.set-reviewers', id: input.id, reviewers: input.reviewers }, principal);
}
