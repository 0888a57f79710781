/**
 * Change requests as Unleash Enterprise answers them (`changeRequestSchema`, docs/api-decisions.md "Change
 * requests"): changes grouped by flag, segment changes apart, each change's payload with the `snapshot` of
 * what it changes, conflicts per flag and per change (with flagpole's `conflictValues`: when added, now,
 * proposed), people as `{id, username, imageUrl}`.
 */
import type { Registry } from '../actors/registry.js';
import type { Change, ChangeRequest } from '../domain/change-request.js';
import type { RequestConflicts } from '../domain/change-request-conflicts.js';
import type { User } from '../domain/service-state.js';
import { personOf } from '../queries/change-request-search.query.js';

/** A payload with the change's snapshot, as Unleash's read side has it (arrays, as `reorderStrategy`'s, carry none). */
function payloadOf(change: Change): unknown {
  const payload = change.payload as unknown;
  if (change.snapshot === undefined || Array.isArray(payload)) return payload;
  return { ...(payload as object | undefined), snapshot: change.snapshot };
}

function changeView(registry: Registry, change: Change, conflicts: RequestConflicts | null): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: change.id, action: change.action, payload: payloadOf(change), createdAt: change.createdAt, createdBy: personOf(registry, change.createdBy),
  };
  const conflict = conflicts?.changes.find((c) => c.changeId === change.id);
  if (conflict) Object.assign(view, { conflict: conflict.conflict, conflictValues: { whenAdded: conflict.whenAdded, now: conflict.now, proposed: conflict.proposed } });
  return view;
}

/** A schedule as Unleash shows it (`failureReason`, deprecated, beside `reason` on a failed one). */
function scheduleView(schedule: NonNullable<ChangeRequest['schedule']>): Record<string, unknown> {
  const view: Record<string, unknown> = { scheduledAt: schedule.scheduledAt, status: schedule.status };
  if (schedule.reason !== undefined) view['reason'] = schedule.reason;
  if (schedule.status === 'failed') view['failureReason'] = schedule.reason ?? null;
  return view;
}

/**
 * A request of `project` as answered; `conflicts` against the committed state (null: closed, none computed).
 *
 * @example changeRequestView(registry, 'default', request, conflicts)
 */
export function changeRequestView(registry: Registry, project: string, request: ChangeRequest, conflicts: RequestConflicts | null = null): Record<string, unknown> {
  const features: { name: string; conflict?: string; changes: Record<string, unknown>[] }[] = [];
  const segments: Record<string, unknown>[] = [];
  const serviceSegments = registry.service.state.segments;
  for (const change of request.changes) {
    if (change.action === 'updateSegment' || change.action === 'deleteSegment') {
      const name = change.action === 'updateSegment' ? change.payload.name : serviceSegments[String(change.payload.id)]?.name ?? (change.snapshot as { name?: string } | undefined)?.name ?? String(change.payload.id);
      segments.push({ ...changeView(registry, change, conflicts), name });
      continue;
    }
    let group = features.find((f) => f.name === change.feature);
    if (!group) {
      group = { name: change.feature!, changes: [] };
      const conflict = conflicts?.features.get(change.feature!);
      if (conflict) group.conflict = conflict;
      features.push(group);
    }
    group.changes.push(changeView(registry, change, conflicts));
  }
  const verdict = (v: { by: string; at: string }) => ({ createdAt: v.at, createdBy: personOf(registry, v.by) });
  const view: Record<string, unknown> = {
    id: request.id, title: request.title, project, environment: request.environment, minApprovals: request.minApprovals, state: request.state,
    stateTimestamps: request.stateTimestamps, createdAt: request.createdAt, createdBy: personOf(registry, request.createdBy),
    features, segments,
    approvals: request.approvals.map(verdict), rejections: request.rejections.map(verdict),
    comments: request.comments.map((c) => ({ id: c.id, text: c.text, createdAt: c.at, createdBy: personOf(registry, c.by) })),
  };
  if (request.schedule && (request.state === 'Scheduled' || request.applied?.scheduled)) view['schedule'] = scheduleView(request.schedule);
  return view;
}

/** Users as Unleash's reviewer lists show them. */
export const reviewersView = (users: readonly User[]) => ({
  reviewers: users.map((u) => ({ id: u.id, email: u.email, name: u.name, username: u.username, imageUrl: null })),
});
