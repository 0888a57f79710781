/**
 * Applying a change request is one command (docs/api-decisions.md "Change requests"): every flag change is
 * decided in turn against a trial of the draft by the decider of its write, each seeing the ones before; one
 * refused and nothing is applied. Accepted, the record holds the flag events of every change and the request's
 * `applied`, so SDKs, the history and a restart see all of it or none. Unleash applies changes one by one.
 *
 * The scheduler's apply (`scheduledAt` given) records what stopped it instead of refusing: a conflict
 * suspends the schedule, a refused change fails it; the request stays scheduled either way, as in Unleash.
 */
import { isSegmentChange, type ChangeRequest } from '../change-request.js';
import type { ApplyOutcome } from '../change-request-commands.js';
import { conflictLines, conflictsOf } from '../change-request-conflicts.js';
import type { ChangeRequestEvent } from '../change-request-events.js';
import type { Cmd } from '../commands.js';
import type { ProjectContext } from '../context.js';
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import { changeLabel, decideChange, type FlagChangeBody } from './change-commands.js';
import { closedRefusal, requestAfter, requestIn, sourcesOf, stepOf } from './change-request-shared.js';
import { lacks } from './change-request-states.js';

type ApplyDecision = Decision<ProjectEvent, ApplyOutcome>;

/** Decides every flag change of `request` in order on a trial: their events, or the first refusal (naming the change). */
function decideChanges(draft: ProjectDraft, request: ChangeRequest, context: ProjectContext): { events: ProjectEvent[] } | { refused: { kind: Parameters<typeof fail>[0]; message: string } } {
  const trial = draft.trial();
  const events: ProjectEvent[] = [];
  for (const change of request.changes) {
    if (isSegmentChange(change)) continue;
    const decided = decideChange(trial, change as FlagChangeBody, request.environment, context);
    if (!decided.ok) return { refused: { kind: decided.error.kind, message: `${changeLabel(change)}: ${decided.error.message}` } };
    events.push(...decided.events);
  }
  return { events };
}

/** The scheduler's apply that could not go ahead: recorded, the request still scheduled. */
function stopped(request: ChangeRequest, type: 'change-request.schedule-failed' | 'change-request.schedule-suspended', reason: string, context: ProjectContext): ApplyDecision {
  const events: ChangeRequestEvent[] = [{ type, id: request.id, environment: request.environment, at: context.at, reason }];
  return accept(events, { outcome: type === 'change-request.schedule-failed' ? 'failed' : 'suspended', request: requestAfter(request, events), reason });
}

export function decideApply(draft: ProjectDraft, cmd: Cmd<'change-request.apply'>, context: ProjectContext): ApplyDecision {
  const found = requestIn(draft, cmd.id);
  if (!found.ok) return refuse(found.error);
  const request = found.value;
  const closed = closedRefusal(request);
  if (closed) return refuse(closed);
  const scheduled = cmd.scheduledAt !== undefined;
  if (scheduled) {
    // Only the schedule the scheduler found due: one rescheduled, failed, suspended or applied meanwhile is left alone.
    const schedule = request.schedule;
    if (request.state !== 'Scheduled' || schedule?.status !== 'pending' || schedule.scheduledAt !== cmd.scheduledAt || schedule.scheduledAt > context.at) {
      return refuse(fail('InvalidOperationError', `Change request ${request.id} is not due by this schedule any more`));
    }
  } else if (context.rights && !context.rights.applyChangeRequests) {
    return refuse(lacks('APPLY_CHANGE_REQUEST', request.environment));
  }
  const step = stepOf(request, { type: 'apply' });
  if (!step.ok) return refuse(step.error);
  const conflicts = conflictLines(conflictsOf(request, sourcesOf(draft, context)));
  if (scheduled && conflicts.length > 0) return stopped(request, 'change-request.schedule-suspended', conflicts.join('; '), context);
  if ('refused' in cmd.segments) {
    return scheduled ? stopped(request, 'change-request.schedule-failed', cmd.segments.refused, context) : refuse(fail('InvalidOperationError', cmd.segments.refused));
  }
  // The segment changes the service checked must be the request's now (an edit since would have gone unchecked).
  const segmentIds = request.changes.filter(isSegmentChange).map((c) => c.id);
  const checked = cmd.segments.checked;
  if (segmentIds.length !== checked.length || segmentIds.some((id, i) => id !== checked[i])) {
    return refuse(fail('InvalidOperationError', `Change request ${request.id} changed while it was being applied; apply it again`));
  }
  const decided = decideChanges(draft, request, context);
  if ('refused' in decided) {
    // A target gone since is a conflict with the state, not a request for something unknown: 409.
    const kind = decided.refused.kind === 'NotFoundError' ? 'InvalidOperationError' : decided.refused.kind;
    return scheduled ? stopped(request, 'change-request.schedule-failed', decided.refused.message, context) : refuse(fail(kind, `Change request ${request.id} was not applied, none of its changes: ${decided.refused.message}`));
  }
  const segmentsPending = request.changes.some(isSegmentChange);
  const on = { id: request.id, environment: request.environment, at: context.at };
  const noted: ChangeRequestEvent[] = cmd.note === undefined ? [] : [{ type: 'change-request.commented', ...on, comment: { id: draft.requests.lastCommentId + 1, text: cmd.note, by: context.by, at: context.at } }];
  const applied: ChangeRequestEvent = { type: 'change-request.applied', ...on, title: request.title, by: context.by, scheduled, segmentsPending, conflicts };
  if (cmd.note !== undefined) applied.note = cmd.note;
  const own = [...noted, applied];
  return accept([...decided.events, ...own], { outcome: 'applied', request: requestAfter(request, own), conflicts });
}

/** The service made the segment changes of an applied request: the mark goes (again: nothing). */
export function decideSettleSegments(draft: ProjectDraft, cmd: Cmd<'change-request.settle-segments'>, context: ProjectContext): Decision<ProjectEvent, null> {
  const request = draft.requests.get(cmd.id);
  if (!request?.segmentsPending) return accept([], null);
  return accept([{ type: 'change-request.segments-settled', id: request.id, environment: request.environment, at: context.at }], null);
}
