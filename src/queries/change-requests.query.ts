/**
 * Reading change requests (docs/api-decisions.md "Change requests"), from the project's committed state: the
 * settings, one request with its conflicts, the lists Unleash Enterprise serves, the counts, the reviewers.
 */
import type { Registry } from '../actors/registry.js';
import { isAllowed, principalLabel, projectRoleOf, type Principal } from '../auth/permissions.js';
import { isOpen, takesChanges, type ChangeRequest } from '../domain/change-request.js';
import { conflictsOf, type RequestConflicts } from '../domain/change-request-conflicts.js';
import { own } from '../domain/dict.js';
import { fail } from '../domain/errors.js';
import { failed, ok, type Result } from '../domain/result.js';
import type { User } from '../domain/service-state.js';

/** Most requests the project list answers, newest first (Unleash: the last 300). */
export const PROJECT_LIST_MAX = 300;

/** One environment's setting, as Unleash's GET answers it (the singular `changeRequestEnabled` is Unleash's). */
export interface ConfigRow {
  environment: string;
  type: string;
  changeRequestEnabled: boolean;
  requiredApprovals: number | null;
}

/** A project's committed requests, in creation order; 404 for an unknown project. */
function requestsOf(registry: Registry, projectId: string): Result<ChangeRequest[]> {
  const found = registry.find(projectId);
  return found.ok ? ok(Array.from(found.value.state.changeRequests.requests.values())) : failed(found.error);
}

/** `GET .../change-requests/config`: one row per environment of the project, in the project's order. */
export function changeRequestConfig(registry: Registry, projectId: string): Result<ConfigRow[]> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  const { meta } = found.value.state;
  const environments = registry.service.state.environments;
  return ok(meta.environments.map((environment) => {
    const setting = meta.changeRequestSettings ? own(meta.changeRequestSettings, environment) : undefined;
    return { environment, type: environments.find((e) => e.name === environment)?.type ?? 'development', changeRequestEnabled: setting !== undefined, requiredApprovals: setting?.requiredApprovals ?? null };
  }));
}

/** One request with its conflicts against the committed state (none for a closed request: nothing is left to apply). */
export interface RequestWithConflicts {
  request: ChangeRequest;
  conflicts: RequestConflicts | null;
}

/** `GET .../change-requests/:id`. */
export function changeRequestById(registry: Registry, projectId: string, id: number): Result<RequestWithConflicts> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  const state = found.value.state;
  const request = state.changeRequests.requests.get(id);
  if (!request) return failed(fail('NotFoundError', `Could not find change request ${id} in project "${projectId}"`));
  if (!isOpen(request.state)) return ok({ request, conflicts: null });
  const segments = registry.service.state.segments;
  const conflicts = conflictsOf(request, {
    flag: (name) => state.flags.get(name),
    segment: (segmentId) => (Object.hasOwn(segments, String(segmentId)) ? segments[String(segmentId)] : undefined),
  });
  return ok({ request, conflicts });
}

/** `GET .../change-requests`: every state, newest first, at most {@link PROJECT_LIST_MAX}. */
export function projectChangeRequests(registry: Registry, projectId: string): Result<ChangeRequest[]> {
  const all = requestsOf(registry, projectId);
  return all.ok ? ok(all.value.reverse().slice(0, PROJECT_LIST_MAX)) : all;
}

/** `GET .../change-requests/pending` (and `open`): the caller's open requests of the project, newest first. */
export function pendingForCaller(registry: Registry, projectId: string, principal: Principal): Result<ChangeRequest[]> {
  const all = requestsOf(registry, projectId);
  if (!all.ok) return all;
  const me = principalLabel(principal);
  return ok(all.value.filter((r) => r.createdBy === me && isOpen(r.state)).reverse());
}

/** `GET .../change-requests/pending/:featureName`: every Draft, In review or Approved request that changes the flag. */
export function pendingForFlag(registry: Registry, projectId: string, feature: string): Result<ChangeRequest[]> {
  const all = requestsOf(registry, projectId);
  return all.ok ? ok(all.value.filter((r) => takesChanges(r.state) && r.changes.some((c) => c.feature === feature)).reverse()) : all;
}

/** What `GET .../change-requests/scheduled` asks about: requests changing these flags, strategies, or flags' variants. */
export interface ScheduledFilter {
  features: readonly string[];
  strategyIds: readonly string[];
  variantsOf: readonly string[];
}

/** `GET .../change-requests/scheduled`: scheduled requests that touch any of what is asked (nothing asked: none). */
export function scheduledTouching(registry: Registry, projectId: string, filter: ScheduledFilter): Result<ChangeRequest[]> {
  const all = requestsOf(registry, projectId);
  if (!all.ok) return all;
  return ok(all.value.filter((r) => r.state === 'Scheduled' && r.changes.some((c) =>
    (c.feature && filter.features.includes(c.feature))
    || ((c.action === 'updateStrategy' || c.action === 'deleteStrategy') && filter.strategyIds.includes(c.payload.id))
    || (c.action === 'reorderStrategy' && c.payload.some((o) => filter.strategyIds.includes(o.id)))
    || (c.action === 'patchVariant' && filter.variantsOf.includes(c.feature)))));
}

/** `GET .../change-requests/count`. */
export function changeRequestCounts(registry: Registry, projectId: string): Result<{ total: number; approved: number; applied: number; rejected: number; reviewRequired: number; scheduled: number }> {
  const all = requestsOf(registry, projectId);
  if (!all.ok) return all;
  const count = (state: ChangeRequest['state']) => all.value.filter((r) => r.state === state).length;
  return ok({ total: all.value.length, approved: count('Approved'), applied: count('Applied'), rejected: count('Rejected'), reviewRequired: count('In review'), scheduled: count('Scheduled') });
}

/**
 * The requests the caller can move on, newest first: in review, one they may approve (not their own unless an
 * admin, not approved by them yet); approved or scheduled, one they may apply. The console's "Waiting for me".
 */
export function actionableRequests(registry: Registry, projectId: string, principal: Principal): Result<ChangeRequest[]> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  const { meta, changeRequests } = found.value.state;
  const role = projectRoleOf(principal, meta.members);
  const me = principalLabel(principal);
  const admin = principal.kind === 'admin' || (principal.kind === 'user' && isAllowed(principal, 'ADMIN', role));
  const approve = isAllowed(principal, 'APPROVE_CHANGE_REQUEST', role);
  const apply = isAllowed(principal, 'APPLY_CHANGE_REQUEST', role);
  const actionable = Array.from(changeRequests.requests.values()).filter((r) =>
    (r.state === 'In review' && approve && (admin || r.createdBy !== me) && !r.approvals.some((a) => a.by === me))
    || ((r.state === 'Approved' || r.state === 'Scheduled') && apply));
  return ok(actionable.reverse());
}

/** `GET .../change-requests/actionable`: how many requests the caller can move on ({@link actionableRequests}). */
export function actionableCount(registry: Registry, projectId: string, principal: Principal): Result<{ total: number }> {
  const actionable = actionableRequests(registry, projectId, principal);
  return actionable.ok ? ok({ total: actionable.value.length }) : actionable;
}

/** Users who may approve the project's requests (root Admins, its Owners), by id. */
export function availableReviewers(registry: Registry, projectId: string): Result<User[]> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  const members = found.value.state.meta.members;
  return ok(Object.values(registry.service.state.users)
    .filter((user) => isAllowed({ kind: 'user', user, tokenName: '' }, 'APPROVE_CHANGE_REQUEST', own(members, String(user.id))))
    .sort((a, b) => a.id - b.id));
}

/** `GET .../change-requests/:id/approvers`: the requested reviewers (users deleted since are left out). */
export function requestedReviewers(registry: Registry, projectId: string, id: number): Result<User[]> {
  const found = changeRequestById(registry, projectId, id);
  if (!found.ok) return failed(found.error);
  const users = registry.service.state.users;
  return ok(found.value.request.reviewers.flatMap((uid) => (Object.hasOwn(users, String(uid)) ? [users[String(uid)]!] : [])));
}
