/**
 * Unleash suspends a scheduled change request as soon as something it changes moves (its flag archived, a
 * strategy it changes deleted or updated, the variants it changes edited), not at its time: the request shows
 * `schedule.status: "suspended"` with the reason from then on, and waits for a person. flagpole does it in the
 * decision of the write that moved it (a direct write by someone who may skip requests, or another request's
 * apply), in the project's mailbox, so both are recorded together. A segment changed in the service is seen
 * by the scheduler's apply at the request's time instead (the service's mailbox does not decide project state).
 * Unleash also suspends the schedules of a user who is deleted: {@link decideSchedulerDeleted}.
 */
import { conflictLines, conflictsOf } from '../change-request-conflicts.js';
import { isChangeRequestEvent, type ChangeRequestEvent } from '../change-request-events.js';
import type { Cmd } from '../commands.js';
import type { ProjectContext } from '../context.js';
import { accept, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import { evolve, type ProjectDraft } from '../project-state.js';
import { sourcesOf } from './change-request-shared.js';

/** Whether a request is scheduled and waiting for its time. */
const waiting = (request: { state: string; schedule?: { status: string } | undefined }): boolean =>
  request.state === 'Scheduled' && request.schedule?.status === 'pending';

/**
 * `decision` with a `change-request.schedule-suspended` for every scheduled request of the project that its
 * events make conflict (a conflict it did not have before them), the reason naming each conflict.
 *
 * @example withSuspendedSchedules(draft, decideDeleteStrategy(draft, cmd, context), context)
 */
export function withSuspendedSchedules<R>(draft: ProjectDraft, decision: Decision<ProjectEvent, R>, context: ProjectContext): Decision<ProjectEvent, R> {
  if (!decision.ok || decision.events.every((event) => isChangeRequestEvent(event))) return decision;
  let anyWaiting = false;
  for (const request of draft.requests.all()) if (waiting(request)) { anyWaiting = true; break; }
  if (!anyWaiting) return decision;
  const after = draft.trial();
  for (const event of decision.events) evolve(after, event);
  const suspended: ChangeRequestEvent[] = [];
  for (const request of after.requests.all()) {
    if (!waiting(request)) continue;
    const now = conflictLines(conflictsOf(request, sourcesOf(after, context)));
    if (now.length === 0) continue;
    const before = new Set(conflictLines(conflictsOf(request, sourcesOf(draft, context))));
    if (now.every((line) => before.has(line))) continue;
    suspended.push({ type: 'change-request.schedule-suspended', id: request.id, environment: request.environment, at: context.at, reason: now.join('; ') });
  }
  return suspended.length === 0 ? decision : { ...decision, events: [...decision.events, ...suspended] };
}

/** Unleash's reason for a schedule whose author was deleted, with flagpole's name. */
export const schedulerDeletedReason = (userId: number): string =>
  `The user who scheduled this change request (user id: ${userId}) has been deleted from this flagpole instance.`;

/** Suspends every pending schedule set by the deleted user; answers the ids of those requests. */
export function decideSchedulerDeleted(draft: ProjectDraft, cmd: Cmd<'change-request.scheduler-deleted'>, context: ProjectContext): Decision<ProjectEvent, number[]> {
  const by = `user:${cmd.userId}`;
  const events: ChangeRequestEvent[] = [];
  const ids: number[] = [];
  for (const request of draft.requests.all()) {
    if (!waiting(request) || request.schedule?.by !== by) continue;
    events.push({ type: 'change-request.schedule-suspended', id: request.id, environment: request.environment, at: context.at, reason: schedulerDeletedReason(cmd.userId) });
    ids.push(request.id);
  }
  return accept(events, ids);
}
