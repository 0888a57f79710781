/** The commands of a project's change requests (docs/api-decisions.md "Change requests"), decided in its mailbox. */
import type { ChangeBody, ChangeRequest, TargetState } from './change-request.js';

/** Every change-request command a project actor accepts; names are imperative. */
export type ChangeRequestCommand =
  /** Change requests on (with the approvals needed) or off for one environment of the project. */
  | { type: 'change-request.configure'; environment: string; enabled: boolean; requiredApprovals?: number | undefined }
  /** Adds changes to the sender's open request for the environment, or to a new draft. */
  | { type: 'change-request.add'; environment: string; changes: ChangeBody[] }
  /** Replaces one change (it gets a new id). */
  | { type: 'change-request.edit-change'; id: number; changeId: number; change: ChangeBody }
  | { type: 'change-request.discard-change'; id: number; changeId: number }
  /** Deletes a draft. */
  | { type: 'change-request.discard'; id: number }
  | { type: 'change-request.set-title'; id: number; title: string }
  | { type: 'change-request.comment'; id: number; text: string }
  /** Replaces the requested reviewers (user ids the caller checked exist and may approve). */
  | { type: 'change-request.set-reviewers'; id: number; reviewers: number[] }
  /** Every `PUT .../state` but `Applied`: to review, approve, reject, cancel, schedule (`scheduledAt`). */
  | { type: 'change-request.transition'; id: number; state: Exclude<TargetState, 'Applied'>; comment?: string | undefined; scheduledAt?: string | undefined }
  /**
   * Applies an approved (or scheduled) request: all of its flag changes in this one command, or none.
   * `scheduledAt`: sent by the scheduler, the time it found due (a request rescheduled meanwhile is left
   * alone). `segments`: what the service said of the request's segment changes, checked just before in the
   * segment mailbox: `checked` (the ids of the changes it checked), or the reason it refuses them. `note`:
   * what the scheduler says of this apply (one due while the service was stopped), kept as a comment and on
   * the `applied` event.
   */
  | { type: 'change-request.apply'; id: number; scheduledAt?: string | undefined; segments: SegmentCheck; note?: string | undefined }
  /** The service made the segment changes of an applied request: clears `segmentsPending`. */
  | { type: 'change-request.settle-segments'; id: number }
  /** The user `userId` was deleted: the pending schedules they set are suspended (Unleash's reason). */
  | { type: 'change-request.scheduler-deleted'; userId: number };

/** What the service said of a request's segment changes just before its apply: the ids of those it checked, or why it refuses them. */
export type SegmentCheck = { checked: readonly number[] } | { refused: string };

/**
 * What an apply did: `applied` (the request after; `conflicts`, what had moved since its changes were added
 * and was overwritten); for a scheduled apply that could not go ahead, `failed` or `suspended` with the reason
 * (the request stays scheduled).
 */
export type ApplyOutcome =
  | { outcome: 'applied'; request: ChangeRequest; conflicts: string[] }
  | { outcome: 'failed' | 'suspended'; request: ChangeRequest; reason: string };
