/**
 * What happened to a project's change requests, past tense. Every type starts with `change-request.` (the
 * client feeds skip them by that prefix: no SDK sees a request). Each names the request's `id` and
 * `environment`; {@link UNLEASH_EVENT_TYPES} gives Unleash's event type of each (what integrations send).
 */
import type { Change, ChangeRequest, Comment, Schedule } from './change-request.js';

interface OnRequest {
  id: number;
  environment: string;
  /** When it happened (the record's time): the request's state timestamps, approvals and comments take it. */
  at: string;
}

export type ChangeRequestEvent =
  /** Change requests turned on or off for an environment, or its approvals changed (`null`: off). */
  | { type: 'change-request.configured'; environment: string; requiredApprovals: number | null; before: number | null }
  /** A new draft (its first changes come in the same record). */
  | ({ type: 'change-request.created'; request: ChangeRequest } & OnRequest)
  /** `resetApprovals`: the request was in review or approved, so it is in review again with no approvals. */
  | ({ type: 'change-request.change-added'; change: Change; resetApprovals: boolean } & OnRequest)
  /** An edit replaces the change by a new one (a new id, as Unleash). */
  | ({ type: 'change-request.change-edited'; change: Change; before: Change; resetApprovals: boolean } & OnRequest)
  | ({ type: 'change-request.change-discarded'; before: Change; resetApprovals: boolean } & OnRequest)
  /** A draft deleted by its author. */
  | ({ type: 'change-request.discarded'; before: ChangeRequest } & OnRequest)
  | ({ type: 'change-request.title-set'; title: string; before: string } & OnRequest)
  | ({ type: 'change-request.commented'; comment: Comment } & OnRequest)
  | ({ type: 'change-request.reviewers-set'; reviewers: number[]; before: number[] } & OnRequest)
  | ({ type: 'change-request.sent-to-review' } & OnRequest)
  /** One more approval; the request stays in review until it has enough (then `approved` follows in the same record). */
  | ({ type: 'change-request.approval-added'; by: string } & OnRequest)
  | ({ type: 'change-request.approved' } & OnRequest)
  | ({ type: 'change-request.rejected'; by: string } & OnRequest)
  | ({ type: 'change-request.cancelled' } & OnRequest)
  /** Scheduled, or rescheduled. */
  | ({ type: 'change-request.scheduled'; schedule: Schedule; before: Schedule | null } & OnRequest)
  /**
   * Applied: the flag events of its changes come in the same record, before this one. `title` names it in
   * the history; `scheduled`: by its schedule; `segmentsPending`: the service still makes its segment changes;
   * `conflicts`: what had moved since the changes were added, overwritten by this apply; `note`: what the
   * scheduler said of it (due while the service was stopped).
   */
  | ({ type: 'change-request.applied'; title: string; by: string; scheduled: boolean; segmentsPending: boolean; conflicts: string[]; note?: string } & OnRequest)
  /** A scheduled apply was refused: the request stays scheduled, its schedule `failed`. */
  | ({ type: 'change-request.schedule-failed'; reason: string } & OnRequest)
  /** A scheduled apply met a conflict: the request stays scheduled, its schedule `suspended`. */
  | ({ type: 'change-request.schedule-suspended'; reason: string } & OnRequest)
  /** The service made the segment changes of an applied request. */
  | ({ type: 'change-request.segments-settled' } & OnRequest);

export type ChangeRequestEventType = ChangeRequestEvent['type'];

/** Whether a project event is a change-request event. */
export const isChangeRequestEvent = (event: { type: string }): event is ChangeRequestEvent => event.type.startsWith('change-request.');

/**
 * Unleash's event type of each (`src/lib/events/index.ts`), for integrations; null where Unleash records
 * none. A scheduled apply is also Unleash's `change-request-scheduled-application-success`.
 */
export const UNLEASH_EVENT_TYPES: Readonly<Record<ChangeRequestEventType, string | null>> = Object.freeze({
  'change-request.configured': 'change-request-configuration-updated',
  'change-request.created': 'change-request-created',
  'change-request.change-added': 'change-added',
  'change-request.change-edited': 'change-edited',
  'change-request.change-discarded': 'change-discarded',
  'change-request.discarded': 'change-request-discarded',
  'change-request.title-set': null,
  'change-request.commented': null,
  'change-request.reviewers-set': 'change-request-requested-approvers-updated',
  'change-request.sent-to-review': 'change-request-sent-to-review',
  'change-request.approval-added': 'change-request-approval-added',
  'change-request.approved': 'change-request-approved',
  'change-request.rejected': 'change-request-rejected',
  'change-request.cancelled': 'change-request-cancelled',
  'change-request.scheduled': 'change-request-scheduled',
  'change-request.applied': 'change-request-applied',
  'change-request.schedule-failed': 'change-request-scheduled-application-failure',
  'change-request.schedule-suspended': 'change-request-schedule-suspended',
  'change-request.segments-settled': null,
});

/** Unleash's event types of one event: a scheduled apply is two (`applied` and `scheduled-application-success`). */
export function unleashEventTypes(event: ChangeRequestEvent): string[] {
  const type = UNLEASH_EVENT_TYPES[event.type];
  if (type === null) return [];
  return event.type === 'change-request.applied' && event.scheduled ? [type, 'change-request-scheduled-application-success'] : [type];
}
