/** What the change-request deciders share: finding a request, who may act on it, what an event makes of it. */
import { changeRequestRules, type ChangeRequestEvent as MachineEvent } from '../../../machines/change-request-rules.js';
import { ChangeRequestDraft, evolveRequests } from '../change-request-book.js';
import type { ChangeRequest } from '../change-request.js';
import type { ChangeRequestEvent } from '../change-request-events.js';
import type { ActorContext, ProjectContext } from '../context.js';
import { fail, type DomainError } from '../errors.js';
import type { ProjectDraft } from '../project-state.js';
import { failed, ok, type Result } from '../result.js';
import type { ConflictSources } from '../change-request-conflicts.js';

/** The request `id` of the project; 404 when there is none. */
export function requestIn(draft: ProjectDraft, id: number): Result<ChangeRequest> {
  const request = draft.requests.get(id);
  return request ? ok(request) : failed(fail('NotFoundError', `Could not find change request ${id} in project "${draft.meta.id}"`));
}

/** Whether the sender is the request's author, or an admin (or the service itself). */
export const authorOrAdmin = (request: ChangeRequest, context: ActorContext): boolean =>
  !context.rights || context.rights.admin || request.createdBy === context.by;

/** The 403 of someone who is neither the author nor an admin. */
export const notTheAuthor = (request: ChangeRequest, what: string): DomainError =>
  fail('NoAccessError', `Only the author of change request ${request.id} (or an admin) may ${what}`);

/** What each step of the machine takes, for the 409 of one it refuses. */
const TAKES: Record<MachineEvent['type'], string> = {
  submit: 'only a Draft is sent to review',
  approve: 'only a request In review is approved',
  reject: 'only a request In review or Scheduled is rejected',
  cancel: 'a Draft, In review or Approved request is cancelled; a Scheduled one is rejected',
  discard: 'only a Draft is discarded',
  schedule: 'only an Approved or Scheduled request is scheduled',
  apply: 'only an Approved or Scheduled request is applied',
  edit: 'a Scheduled request is not edited; reject it, or let it apply',
};

/** The 409 of a closed request (whoever asks: closed requests never change), or null. */
export function closedRefusal(request: ChangeRequest): DomainError | null {
  return changeRequestRules.isClosed(request.state)
    ? fail('InvalidOperationError', `Change request ${request.id} is ${request.state}: a closed change request does not change`)
    : null;
}

/** The machine's step for `event`, or the 409 naming the request's state and what the step takes. */
export function stepOf(request: ChangeRequest, event: MachineEvent): Result<{ state: ChangeRequest['state']; resetApprovals: boolean }> {
  const closed = closedRefusal(request);
  if (closed) return failed(closed);
  const step = changeRequestRules.step(request.state, event);
  return step ? ok(step) : failed(fail('InvalidOperationError', `Change request ${request.id} is ${request.state}: ${TAKES[event.type]}`));
}

/** `request` after `events` (the reply of a decision, built as evolve will build it). */
export function requestAfter(request: ChangeRequest, events: readonly ChangeRequestEvent[]): ChangeRequest {
  const scratch = new ChangeRequestDraft({ requests: new Map([[request.id, request]]), lastId: request.id, lastChangeId: 0, lastCommentId: 0 });
  for (const event of events) if (event.type !== 'change-request.configured') evolveRequests(scratch, event);
  return scratch.get(request.id) ?? request;
}

/** The project and service state a snapshot or conflict reads, as the draft and the lookups have them. */
export const sourcesOf = (draft: ProjectDraft, context: ProjectContext): ConflictSources => ({
  flag: (name) => draft.getFlag(name),
  segment: (id) => context.lookups?.storedSegment?.(id),
});
