/**
 * `PUT .../change-requests/:id/state` but `Applied` (see `change-request-apply.ts`): the change-request
 * machine says which step a state allows; this says who may take it. Sending to review and cancelling: the
 * author (or an admin). Approving and rejecting: `APPROVE_CHANGE_REQUEST`, never one's own request unless an
 * admin, one approval per person. Scheduling: `APPLY_CHANGE_REQUEST`, at a time still to come.
 */
import type { ChangeRequest } from '../change-request.js';
import type { ChangeRequestEvent } from '../change-request-events.js';
import type { Cmd } from '../commands.js';
import type { ProjectContext } from '../context.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import { authorOrAdmin, closedRefusal, notTheAuthor, requestAfter, requestIn, stepOf } from './change-request-shared.js';

type RequestDecision = Decision<ProjectEvent, ChangeRequest>;

/** The 403 of a sender without a change-request permission (as the route check words it). */
export const lacks = (permission: 'APPROVE_CHANGE_REQUEST' | 'APPLY_CHANGE_REQUEST', environment: string) =>
  fail('NoAccessError', `You need the permission "${permission}" in environment "${environment}" to do this`);

/** A comment sent with a state change is kept as a comment of the request. */
function commentEvent(draft: ProjectDraft, request: ChangeRequest, text: string | undefined, context: ProjectContext): ChangeRequestEvent[] {
  if (!text) return [];
  return [{ type: 'change-request.commented', id: request.id, environment: request.environment, at: context.at, comment: { id: draft.requests.lastCommentId + 1, text, by: context.by, at: context.at } }];
}

export function decideTransition(draft: ProjectDraft, cmd: Cmd<'change-request.transition'>, context: ProjectContext): RequestDecision {
  const found = requestIn(draft, cmd.id);
  if (!found.ok) return refuse(found.error);
  const request = found.value;
  const closed = closedRefusal(request);
  if (closed) return refuse(closed);
  const on = { id: request.id, environment: request.environment, at: context.at };
  const rights = context.rights;
  const done = (events: ChangeRequestEvent[]) => accept<ProjectEvent, ChangeRequest>(events, requestAfter(request, events));
  switch (cmd.state) {
    case 'In review': {
      if (!authorOrAdmin(request, context)) return refuse(notTheAuthor(request, 'send it to review'));
      const step = stepOf(request, { type: 'submit' });
      if (!step.ok) return refuse(step.error);
      if (request.changes.length === 0) return refuse(fail('InvalidOperationError', `Change request ${request.id} has no changes: add one before sending it to review`));
      return done([{ type: 'change-request.sent-to-review', ...on }, ...commentEvent(draft, request, cmd.comment, context)]);
    }
    case 'Approved': {
      if (rights && !rights.approveChangeRequests) return refuse(lacks('APPROVE_CHANGE_REQUEST', request.environment));
      if (rights && !rights.admin && request.createdBy === context.by) return refuse(fail('NoAccessError', `You can not approve your own change request (${request.id}); another approver must`));
      if (request.approvals.some((a) => a.by === context.by)) {
        return refuse(fail('InvalidOperationError', `You have approved change request ${request.id} already; it needs ${request.minApprovals} approval${request.minApprovals === 1 ? '' : 's'} from different people`));
      }
      const step = stepOf(request, { type: 'approve', enough: request.approvals.length + 1 >= request.minApprovals });
      if (!step.ok) return refuse(step.error);
      const events: ChangeRequestEvent[] = [{ type: 'change-request.approval-added', ...on, by: context.by }];
      if (step.value.state === 'Approved') events.push({ type: 'change-request.approved', ...on });
      return done([...events, ...commentEvent(draft, request, cmd.comment, context)]);
    }
    case 'Rejected': {
      if (rights && !rights.approveChangeRequests) return refuse(lacks('APPROVE_CHANGE_REQUEST', request.environment));
      const step = stepOf(request, { type: 'reject' });
      if (!step.ok) return refuse(step.error);
      return done([...commentEvent(draft, request, cmd.comment, context), { type: 'change-request.rejected', ...on, by: context.by }]);
    }
    case 'Cancelled': {
      if (!authorOrAdmin(request, context)) return refuse(notTheAuthor(request, 'cancel it'));
      const step = stepOf(request, { type: 'cancel' });
      if (!step.ok) return refuse(step.error);
      return done([...commentEvent(draft, request, cmd.comment, context), { type: 'change-request.cancelled', ...on }]);
    }
    case 'Scheduled': {
      if (rights && !rights.applyChangeRequests) return refuse(lacks('APPLY_CHANGE_REQUEST', request.environment));
      const step = stepOf(request, { type: 'schedule' });
      if (!step.ok) return refuse(step.error);
      const scheduledAt = cmd.scheduledAt!;
      if (scheduledAt <= context.at) return refuse(fail('ValidationError', `"scheduledAt": ${scheduledAt} is not in the future (it is ${context.at} now); apply it now instead, or choose a later time`));
      const schedule = { scheduledAt, status: 'pending' as const, by: context.by };
      return done([{ type: 'change-request.scheduled', ...on, schedule, before: request.schedule ?? null }, ...commentEvent(draft, request, cmd.comment, context)]);
    }
  }
}
