/**
 * Writing change requests (docs/api-decisions.md "Change requests"): the per-environment setting, adding
 * changes to the sender's open request (or a new draft), editing and discarding changes, discarding a draft,
 * the title, comments, the requested reviewers. Every change is checked when it is added, after the request's
 * earlier changes, by the decider of the write it stands for: a change naming an unknown flag, strategy or
 * segment, or one a direct write would be refused, is refused here.
 */
import { LIMIT_VARIABLES, overLimit } from '../../limits.js';
import type { ChangeBody, ChangeRequest, Change } from '../change-request.js';
import { isSegmentChange, takesChanges } from '../change-request.js';
import type { ChangeRequestEvent } from '../change-request-events.js';
import { snapshotOf } from '../change-request-conflicts.js';
import type { Cmd } from '../commands.js';
import type { ProjectContext } from '../context.js';
import { own } from '../dict.js';
import { accept, fail, refuse, type Decision, type DomainError } from '../errors.js';
import type { ProjectEvent } from '../events.js';
import type { ProjectDraft } from '../project-state.js';
import { failed, ok, type Result } from '../result.js';
import { changeLabel, decideChange, type FlagChangeBody } from './change-commands.js';
import { authorOrAdmin, closedRefusal, notTheAuthor, requestAfter, requestIn, sourcesOf, stepOf } from './change-request-shared.js';
import { checkEnvironment } from './shared.js';

type RequestDecision = Decision<ProjectEvent, ChangeRequest>;

/** Turns change requests on (with the approvals needed; kept, else 1, when not given) or off for one environment. */
export function decideConfigure(draft: ProjectDraft, cmd: Cmd<'change-request.configure'>): Decision<ProjectEvent, null> {
  const missing = checkEnvironment(draft, cmd.environment);
  if (missing) return refuse(missing);
  const before = draft.meta.changeRequestSettings ? own(draft.meta.changeRequestSettings, cmd.environment)?.requiredApprovals ?? null : null;
  const after = cmd.enabled ? cmd.requiredApprovals ?? before ?? 1 : null;
  if (before === after) return accept([], null);
  return accept([{ type: 'change-request.configured', environment: cmd.environment, requiredApprovals: after, before }], null);
}

/** A segment change must name a segment of this project (Unleash's change requests change project segments). */
function checkSegmentChange(draft: ProjectDraft, change: Extract<ChangeBody, { action: 'updateSegment' | 'deleteSegment' }>, context: ProjectContext): DomainError | null {
  const { id } = change.payload;
  const segment = context.lookups?.storedSegment?.(id);
  if (!segment) return fail('NotFoundError', `Could not find segment with id ${id}`);
  const project = draft.meta.id;
  if (segment.project !== project) {
    return fail('ValidationError', `"payload.id": segment ${id} ("${segment.name}") is ${segment.project === null ? 'a global segment' : `a segment of project "${segment.project}"`}; the change requests of project "${project}" change only its own segments`);
  }
  if (change.action === 'updateSegment' && change.payload.project !== project) {
    return fail('ValidationError', `"payload.project": must be "${project}": a change request of project "${project}" keeps its segments in it`);
  }
  return null;
}

/** A flag change ready to be stored: an `updateStrategy` without a name takes the strategy's. */
function completed(trial: ProjectDraft, change: FlagChangeBody, environment: string): FlagChangeBody {
  if (change.action !== 'updateStrategy' || change.payload.name !== undefined) return change;
  const strategy = own(trial.getFlag(change.feature)?.environments ?? {}, environment)?.strategies.find((s) => s.id === change.payload.id);
  return strategy ? { ...change, payload: { ...change.payload, name: strategy.name } } : change;
}

/**
 * Checks `added` after `kept`, the request's changes before them, in order, each by the decider of its write (the kept ones
 * that no longer go through are passed over: they are conflicts, shown and answered at the apply). Answers
 * the changes as they are stored, or the first refusal, naming the change.
 */
function checkChanges(draft: ProjectDraft, environment: string, kept: readonly Change[], added: readonly ChangeBody[], context: ProjectContext): Result<ChangeBody[]> {
  const trial = draft.trial();
  for (const change of kept) if (!isSegmentChange(change)) decideChange(trial, change as FlagChangeBody, environment, context);
  const out: ChangeBody[] = [];
  for (const [index, change] of added.entries()) {
    if (change.action === 'updateSegment' || change.action === 'deleteSegment') {
      const refused = checkSegmentChange(draft, change, context);
      if (refused) return failed({ ...refused, message: `${changeLabel(change, index)}: ${refused.message}` });
      out.push(change);
      continue;
    }
    const ready = completed(trial, change as FlagChangeBody, environment);
    const decided = decideChange(trial, ready, environment, context);
    if (!decided.ok) return failed({ ...decided.error, message: `${changeLabel(change, index)}: ${decided.error.message}` });
    out.push(ready);
  }
  return ok(out);
}

/** The stored change of `body`: its id, who added it and when, and what it changes now. */
function stored(draft: ProjectDraft, body: ChangeBody, id: number, environment: string, context: ProjectContext): Change {
  const snapshot = snapshotOf(body, environment, sourcesOf(draft, context));
  const change = { ...body, id, createdAt: context.at, createdBy: context.by } as Change;
  return snapshot === undefined ? change : { ...change, snapshot };
}

/** The sender's request that takes changes for the environment (Draft, In review, Approved), if any. */
const openRequestOf = (draft: ProjectDraft, by: string, environment: string): ChangeRequest | undefined => {
  let found: ChangeRequest | undefined;
  for (const request of draft.requests.all()) if (request.createdBy === by && request.environment === environment && takesChanges(request.state)) found = request;
  return found;
};

/**
 * `POST .../environments/:env/change-requests`: the changes go to the sender's open request for the
 * environment (one per person, as Unleash), or to a new draft. Changes to a request in review or approved
 * send it back to review, its approvals reset.
 */
export function decideAddChanges(draft: ProjectDraft, cmd: Cmd<'change-request.add'>, context: ProjectContext): RequestDecision {
  const missing = checkEnvironment(draft, cmd.environment);
  if (missing) return refuse(missing);
  const setting = draft.meta.changeRequestSettings ? own(draft.meta.changeRequestSettings, cmd.environment) : undefined;
  const open = openRequestOf(draft, context.by, cmd.environment);
  if (!setting && !open) return refuse(fail('InvalidOperationError', `Change requests are not enabled for environment "${cmd.environment}" of project "${draft.meta.id}"; turn them on first (PUT /api/admin/projects/${draft.meta.id}/environments/${cmd.environment}/change-requests/config)`));
  const events: ChangeRequestEvent[] = [];
  let request: ChangeRequest;
  let resetApprovals = false;
  if (open) {
    const step = stepOf(open, { type: 'edit' });
    if (!step.ok) return refuse(step.error);
    request = open;
    resetApprovals = step.value.resetApprovals;
  } else {
    let count = 0;
    for (const r of draft.requests.all()) if (r.state !== 'Applied' && r.state !== 'Cancelled' && r.state !== 'Rejected') count += 1;
    if (count >= context.limits.openChangeRequests) return refuse(fail('ExceedsLimitError', overLimit(`The number of open change requests of project "${draft.meta.id}"`, context.limits.openChangeRequests, LIMIT_VARIABLES.openChangeRequests)));
    const id = draft.requests.lastId + 1;
    request = {
      id, title: `Change Request #${id}`, environment: cmd.environment, state: 'Draft', minApprovals: setting!.requiredApprovals,
      createdAt: context.at, createdBy: context.by, changes: [], approvals: [], rejections: [], comments: [], reviewers: [], stateTimestamps: { Draft: context.at },
    };
    events.push({ type: 'change-request.created', id, environment: cmd.environment, at: context.at, request });
  }
  const tooMany = checkChangeCount(request, request.changes.length + cmd.changes.length, context);
  if (tooMany) return refuse(tooMany);
  const checked = checkChanges(draft, cmd.environment, request.changes, cmd.changes, context);
  if (!checked.ok) return refuse(checked.error);
  const added: ChangeRequestEvent[] = checked.value.map((body, i) => ({
    type: 'change-request.change-added', id: request.id, environment: request.environment, at: context.at,
    change: stored(draft, body, draft.requests.lastChangeId + 1 + i, request.environment, context), resetApprovals: i === 0 && resetApprovals,
  }));
  return accept([...events, ...added], requestAfter(request, added));
}

function checkChangeCount(request: ChangeRequest, count: number, context: ProjectContext): DomainError | null {
  if (count <= context.limits.changesPerRequest) return null;
  return fail('ExceedsLimitError', overLimit(`The number of changes of change request ${request.id || '(new)'}`, context.limits.changesPerRequest, LIMIT_VARIABLES.changesPerRequest));
}

/** A request the sender may edit (author or admin, not closed, not scheduled) and one of its changes. */
function editable(draft: ProjectDraft, id: number, changeId: number, context: ProjectContext): Result<{ request: ChangeRequest; change: Change; resetApprovals: boolean }> {
  const found = requestIn(draft, id);
  if (!found.ok) return found;
  const request = found.value;
  const step = stepOf(request, { type: 'edit' });
  if (!step.ok) return step;
  if (!authorOrAdmin(request, context)) return failed(notTheAuthor(request, 'change its changes'));
  const change = request.changes.find((c) => c.id === changeId);
  if (!change) return failed(fail('NotFoundError', `Change request ${id} has no change ${changeId}`));
  return ok({ request, change, resetApprovals: step.value.resetApprovals });
}

/** `PUT .../changes/:changeId`: replaces the change with a new one (a new id, as Unleash), checked like an added one. */
export function decideEditChange(draft: ProjectDraft, cmd: Cmd<'change-request.edit-change'>, context: ProjectContext): RequestDecision {
  const found = editable(draft, cmd.id, cmd.changeId, context);
  if (!found.ok) return refuse(found.error);
  const { request, change: before, resetApprovals } = found.value;
  // The edit keeps the change's place: it is checked after the changes before it.
  const checked = checkChanges(draft, request.environment, request.changes.slice(0, request.changes.indexOf(before)), [cmd.change], context);
  if (!checked.ok) return refuse(checked.error);
  const change = stored(draft, checked.value[0]!, draft.requests.lastChangeId + 1, request.environment, context);
  const events: ChangeRequestEvent[] = [{ type: 'change-request.change-edited', id: request.id, environment: request.environment, at: context.at, change, before, resetApprovals }];
  return accept(events, requestAfter(request, events));
}

/** `DELETE .../changes/:changeId`. */
export function decideDiscardChange(draft: ProjectDraft, cmd: Cmd<'change-request.discard-change'>, context: ProjectContext): RequestDecision {
  const found = editable(draft, cmd.id, cmd.changeId, context);
  if (!found.ok) return refuse(found.error);
  const { request, change: before, resetApprovals } = found.value;
  const events: ChangeRequestEvent[] = [{ type: 'change-request.change-discarded', id: request.id, environment: request.environment, at: context.at, before, resetApprovals }];
  return accept(events, requestAfter(request, events));
}

/** `DELETE .../change-requests/:id`: deletes a draft (its author's, or an admin). */
export function decideDiscard(draft: ProjectDraft, cmd: Cmd<'change-request.discard'>, context: ProjectContext): Decision<ProjectEvent, null> {
  const found = requestIn(draft, cmd.id);
  if (!found.ok) return refuse(found.error);
  const request = found.value;
  const step = stepOf(request, { type: 'discard' });
  if (!step.ok) return refuse(step.error);
  if (!authorOrAdmin(request, context)) return refuse(notTheAuthor(request, 'discard it'));
  return accept([{ type: 'change-request.discarded', id: request.id, environment: request.environment, at: context.at, before: request }], null);
}

/** An open request the sender may change (its author, or an admin). */
function ownOpen(draft: ProjectDraft, id: number, context: ProjectContext, what: string): Result<ChangeRequest> {
  const found = requestIn(draft, id);
  if (!found.ok) return found;
  const request = open(found.value);
  if (!request.ok) return request;
  return authorOrAdmin(request.value, context) ? request : failed(notTheAuthor(request.value, what));
}

/** The request, or the 409 of a closed one. */
function open(request: ChangeRequest): Result<ChangeRequest> {
  const closed = closedRefusal(request);
  return closed ? failed(closed) : ok(request);
}

export function decideSetTitle(draft: ProjectDraft, cmd: Cmd<'change-request.set-title'>, context: ProjectContext): RequestDecision {
  const found = ownOpen(draft, cmd.id, context, 'change its title');
  if (!found.ok) return refuse(found.error);
  const request = found.value;
  if (request.title === cmd.title) return accept([], request);
  const events: ChangeRequestEvent[] = [{ type: 'change-request.title-set', id: request.id, environment: request.environment, at: context.at, title: cmd.title, before: request.title }];
  return accept(events, requestAfter(request, events));
}

/** Anyone who may read the project comments on an open request. */
export function decideComment(draft: ProjectDraft, cmd: Cmd<'change-request.comment'>, context: ProjectContext): RequestDecision {
  const found = requestIn(draft, cmd.id);
  const request = found.ok ? open(found.value) : found;
  if (!request.ok) return refuse(request.error);
  const events: ChangeRequestEvent[] = [{
    type: 'change-request.commented', id: cmd.id, environment: request.value.environment, at: context.at,
    comment: { id: draft.requests.lastCommentId + 1, text: cmd.text, by: context.by, at: context.at },
  }];
  return accept(events, requestAfter(request.value, events));
}

export function decideSetReviewers(draft: ProjectDraft, cmd: Cmd<'change-request.set-reviewers'>, context: ProjectContext): RequestDecision {
  const found = ownOpen(draft, cmd.id, context, 'choose its reviewers');
  if (!found.ok) return refuse(found.error);
  const request = found.value;
  if (JSON.stringify(request.reviewers) === JSON.stringify(cmd.reviewers)) return accept([], request);
  const events: ChangeRequestEvent[] = [{ type: 'change-request.reviewers-set', id: request.id, environment: request.environment, at: context.at, reviewers: cmd.reviewers, before: request.reviewers }];
  return accept(events, requestAfter(request, events));
}
