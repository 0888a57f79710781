/**
 * How the history shows change requests (docs/storage.md "History"): each event of a request is an entry of
 * its own, and the record of an applied request is ONE entry that names it and holds the before and after of
 * every change it made (`changeRequest.changes`).
 */
import type { ChangeRequestEvent } from '../../domain/change-request-events.js';
import { isChangeRequestEvent } from '../../domain/change-request-events.js';
import type { ProjectEvent } from '../../domain/events.js';

/** The sides of one change an applied request made, as a history entry has them. */
export interface HistoryChange {
  type: ProjectEvent['type'];
  feature: string | null;
  environment: string | null;
  before: unknown;
  after: unknown;
  environmentEnabled: boolean | null;
}

/** What a history entry says of the change request it belongs to; `changes` only on the entry of an apply. */
export interface HistoryRequest {
  id: number;
  title?: string;
  changes?: HistoryChange[];
}

/** What one change-request event changed, before and after (the request's part it is about). */
export function requestSides(event: ChangeRequestEvent): { environment: string; before: unknown; after: unknown } {
  const on = (before: unknown, after: unknown) => ({ environment: event.environment, before, after });
  switch (event.type) {
    case 'change-request.configured':
      return on(setting(event.before), setting(event.requiredApprovals));
    case 'change-request.created':
      return on(null, { title: event.request.title, state: event.request.state });
    case 'change-request.change-added':
      return on(null, event.change);
    case 'change-request.change-edited':
      return on(event.before, event.change);
    case 'change-request.change-discarded':
      return on(event.before, null);
    case 'change-request.discarded':
      return on({ title: event.before.title, state: event.before.state }, null);
    case 'change-request.title-set':
      return on({ title: event.before }, { title: event.title });
    case 'change-request.commented':
      return on(null, { comment: event.comment.text });
    case 'change-request.reviewers-set':
      return on({ reviewers: event.before }, { reviewers: event.reviewers });
    case 'change-request.sent-to-review':
      return on({ state: 'Draft' }, { state: 'In review' });
    case 'change-request.approval-added':
      return on(null, { approvedBy: event.by });
    case 'change-request.approved':
      return on({ state: 'In review' }, { state: 'Approved' });
    case 'change-request.rejected':
      return on(null, { state: 'Rejected', rejectedBy: event.by });
    case 'change-request.cancelled':
      return on(null, { state: 'Cancelled' });
    case 'change-request.scheduled':
      return on(event.before, event.schedule);
    case 'change-request.applied':
      return on(null, { state: 'Applied', scheduled: event.scheduled, conflicts: event.conflicts, ...(event.note === undefined ? {} : { note: event.note }) });
    case 'change-request.schedule-failed':
      return on(null, { schedule: 'failed', reason: event.reason });
    case 'change-request.schedule-suspended':
      return on(null, { schedule: 'suspended', reason: event.reason });
    case 'change-request.segments-settled':
      return on(null, { segments: 'changed' });
  }
}

const setting = (approvals: number | null) => (approvals === null ? { enabled: false } : { enabled: true, requiredApprovals: approvals });

/** The apply event of a record's events, if the record applied a change request. */
export function appliedIn(events: readonly ProjectEvent[]): Extract<ChangeRequestEvent, { type: 'change-request.applied' }> | undefined {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i]!;
    if (event.type === 'change-request.applied') return event;
  }
  return undefined;
}

/** The request an event belongs to, for its history entry (undefined for events of no request). */
export function requestOf(event: ProjectEvent): HistoryRequest | undefined {
  if (!isChangeRequestEvent(event) || event.type === 'change-request.configured') return undefined;
  return { id: event.id };
}
