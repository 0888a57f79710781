/**
 * Change requests (Unleash Enterprise's, docs/api-decisions.md "Change requests"): proposed changes to one
 * environment of a project, reviewed and then applied together. They are the project's state: its actor
 * decides every rule about them, its log records them, its snapshots and dumps hold them.
 */
import type { ChangeRequestStateValue } from '../../machines/change-request-rules.js';
import type { ChangeBody } from '../schemas/change-request.schema.js';

export type { ChangeAction, ChangeBody, TargetState } from '../schemas/change-request.schema.js';

/** A request's state, as Unleash names it (the value of the change-request machine). */
export type ChangeRequestState = ChangeRequestStateValue;

/** One change of a request: what a client sent, with its id, who added it and when, and what it changes as it was then. */
export type Change = ChangeBody & {
  /** Unique in the project; an edit gives the change a new one (as Unleash does). */
  id: number;
  /**
   * What the change changes, as it was when the change was added (a strategy, the variants, a segment, the
   * on/off state, ...); absent where nothing existed (a new strategy). Conflicts compare it with now.
   */
  snapshot?: unknown;
  createdAt: string;
  /** Who added it, as the history names them (`user:3`, `admin-token:ci`). */
  createdBy: string;
};

/** Someone's approval or rejection, once per person. */
export interface Verdict {
  by: string;
  at: string;
}

/** A comment on a request. */
export interface Comment {
  id: number;
  text: string;
  by: string;
  at: string;
}

/**
 * When a scheduled request is applied, and how that went: `pending` until then; `failed` when its apply was
 * refused (it stays scheduled, `reason` says why); `suspended` when a change conflicts with what moved since.
 */
export interface Schedule {
  scheduledAt: string;
  status: 'pending' | 'failed' | 'suspended';
  reason?: string;
  /** Who scheduled it. */
  by: string;
}

/** A change request of a project. Its record is replaced whole on every change (requests are small). */
export interface ChangeRequest {
  /** Unique in the project, from 1. */
  id: number;
  title: string;
  environment: string;
  state: ChangeRequestState;
  /** Approvals needed to be approved: the environment's setting when the request was created. */
  minApprovals: number;
  createdAt: string;
  createdBy: string;
  changes: Change[];
  approvals: Verdict[];
  rejections: Verdict[];
  comments: Comment[];
  /** User ids asked to review it. */
  reviewers: number[];
  /** When it last entered each state. */
  stateTimestamps: Partial<Record<ChangeRequestState, string>>;
  /** While scheduled (and after, once applied by its schedule). */
  schedule?: Schedule;
  /**
   * Applied, but its segment changes are still to be made in the service (docs/architecture.md "Change
   * requests"): set in the apply's record, cleared once the service made them; a start finishes them.
   */
  segmentsPending?: boolean;
  /** When applied: at what moment, by whom, and whether by its schedule. */
  applied?: { at: string; by: string; scheduled: boolean };
}

/** A change of a request that changes a segment (held by the service, not the project). */
export type SegmentChange = Extract<Change, { action: 'updateSegment' | 'deleteSegment' }>;

/** A change of a request that changes a flag of the project. */
export type FlagChange = Exclude<Change, SegmentChange>;

/** Whether a change changes a segment rather than a flag. */
export const isSegmentChange = (change: Change): change is SegmentChange =>
  change.action === 'updateSegment' || change.action === 'deleteSegment';

/** Change requests on or off for one environment of a project, and the approvals they need there. */
export interface ChangeRequestSetting {
  requiredApprovals: number;
}

/** Whether a request is open in Unleash's search sense (Draft, In review, Approved, Scheduled). */
export const isOpen = (state: ChangeRequestState): boolean => state !== 'Applied' && state !== 'Cancelled' && state !== 'Rejected';

/**
 * Whether a request is one its author still adds changes to: Unleash keeps one such request per person,
 * project and environment (Draft, In review, Approved; a scheduled one does not count).
 */
export const takesChanges = (state: ChangeRequestState): boolean => state === 'Draft' || state === 'In review' || state === 'Approved';
