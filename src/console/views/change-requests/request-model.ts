/** What a change request's page shows: the request with its conflicts, who is who, and what the viewer may do. */
import type { ChangeRequest } from '../../../domain/change-request.js';
import type { RequestConflicts } from '../../../domain/change-request-conflicts.js';
import type { Refusal } from '../form-parts.js';

/** The steps the viewer may take on the request now (by its state and their permissions); the mailbox decides anyway. */
export interface RequestActions {
  rename: boolean;
  /** Discard one change (a request that still takes changes). */
  discardChange: boolean;
  submit: boolean;
  approve: boolean;
  reject: boolean;
  cancel: boolean;
  apply: boolean;
  schedule: boolean;
  discardDraft: boolean;
  comment: boolean;
}

/** Everything the request page's views need. */
export interface RequestPageModel {
  project: { id: string; name: string };
  request: ChangeRequest;
  /** Against the committed state; null for a closed request. */
  conflicts: RequestConflicts | null;
  /** `user:3` → the user's name. */
  people: ReadonlyMap<string, string>;
  may: RequestActions;
  /** The current time (ISO), for the schedule's hint and its field's minimum. */
  now: string;
  refused?: Refusal<unknown> | undefined;
  notice?: string | undefined;
}
