/**
 * A project's change requests as state: the committed book, the draft a batch of commands works on, and how
 * each change-request event evolves it (the one function for deciding and replaying).
 */
import { CHANGE_REQUESTS_KEPT_CLOSED } from '../limits.js';
import { changeRequestRules } from '../../machines/change-request-rules.js';
import type { ChangeRequest, ChangeRequestState } from './change-request.js';
import type { ChangeRequestEvent } from './change-request-events.js';

/** A project's change requests as committed: by id, in creation order, with the last ids given out. */
export interface ChangeRequestBook {
  requests: ReadonlyMap<number, ChangeRequest>;
  lastId: number;
  lastChangeId: number;
  lastCommentId: number;
}

/** The book as snapshots and dumps hold it. */
export interface StoredBook {
  requests: ChangeRequest[];
  lastId: number;
  lastChangeId: number;
  lastCommentId: number;
}

/** A project without change requests. */
export const emptyBook = (): ChangeRequestBook => ({ requests: new Map(), lastId: 0, lastChangeId: 0, lastCommentId: 0 });

/** The book from what a snapshot or dump holds (absent: none). */
export const bookFromStored = (stored: StoredBook | undefined): ChangeRequestBook => stored
  ? { requests: new Map(stored.requests.map((r) => [r.id, r])), lastId: stored.lastId, lastChangeId: stored.lastChangeId, lastCommentId: stored.lastCommentId }
  : emptyBook();

/** What a snapshot or dump holds of a book; undefined for a project that never had a request. */
export const storedBook = (book: ChangeRequestBook): StoredBook | undefined => book.lastId === 0 && book.requests.size === 0
  ? undefined
  : { requests: Array.from(book.requests.values()), lastId: book.lastId, lastChangeId: book.lastChangeId, lastCommentId: book.lastCommentId };

/** The change requests of one batch: changes go to an overlay, the committed book is untouched until published. */
export class ChangeRequestDraft {
  private readonly changed = new Map<number, ChangeRequest | null>();
  lastId: number;
  lastChangeId: number;
  lastCommentId: number;

  constructor(private readonly base: ChangeRequestBook) {
    this.lastId = base.lastId;
    this.lastChangeId = base.lastChangeId;
    this.lastCommentId = base.lastCommentId;
  }

  get(id: number): ChangeRequest | undefined {
    const changed = this.changed.get(id);
    if (changed !== undefined) return changed ?? undefined;
    return this.base.requests.get(id);
  }

  /** Every request as the draft has them, in creation (id) order. */
  *all(): Iterable<ChangeRequest> {
    for (const request of this.base.requests.values()) {
      const changed = this.changed.get(request.id);
      if (changed === undefined) yield request;
      else if (changed) yield changed;
    }
    for (const [id, request] of this.changed) if (request && !this.base.requests.has(id)) yield request;
  }

  set(request: ChangeRequest): void {
    this.changed.set(request.id, request);
  }

  delete(id: number): void {
    this.changed.set(id, null);
  }

  /** Whether this draft changed anything. */
  get touched(): boolean {
    return this.changed.size > 0 || this.lastId !== this.base.lastId || this.lastChangeId !== this.base.lastChangeId || this.lastCommentId !== this.base.lastCommentId;
  }

  /** The book with this draft's changes (the committed one when there are none). */
  publish(): ChangeRequestBook {
    if (!this.touched) return this.base;
    const requests = new Map(this.base.requests);
    for (const [id, request] of this.changed) {
      if (request) requests.set(id, request);
      else requests.delete(id);
    }
    return { requests, lastId: this.lastId, lastChangeId: this.lastChangeId, lastCommentId: this.lastCommentId };
  }
}

/** A request that entered `state` at `at`. */
const entered = (request: ChangeRequest, state: ChangeRequestState, at: string): ChangeRequest =>
  ({ ...request, state, stateTimestamps: { ...request.stateTimestamps, [state]: at } });

/** A request after an edit: back in review without approvals when the machine says so. */
const edited = (request: ChangeRequest, changes: ChangeRequest['changes'], resetApprovals: boolean, at: string): ChangeRequest => {
  const next = { ...request, changes };
  return resetApprovals ? { ...entered(next, 'In review', at), approvals: [] } : next;
};

/**
 * Applies one change-request event to the draft (the `configured` event changes the project's meta and is
 * evolved there). States move as the change-request machine decided them when the event was recorded.
 */
export function evolveRequests(draft: ChangeRequestDraft, event: ChangeRequestEvent): void {
  if (event.type === 'change-request.configured') return;
  if (event.type === 'change-request.created') {
    draft.set(event.request);
    draft.lastId = Math.max(draft.lastId, event.id);
    return;
  }
  const request = draft.get(event.id);
  if (!request) throw new Error(`event ${event.type} for unknown change request ${event.id}`);
  const { at } = event;
  switch (event.type) {
    case 'change-request.change-added':
      draft.lastChangeId = Math.max(draft.lastChangeId, event.change.id);
      return draft.set(edited(request, [...request.changes, event.change], event.resetApprovals, at));
    case 'change-request.change-edited':
      draft.lastChangeId = Math.max(draft.lastChangeId, event.change.id);
      return draft.set(edited(request, request.changes.map((c) => (c.id === event.before.id ? event.change : c)), event.resetApprovals, at));
    case 'change-request.change-discarded':
      return draft.set(edited(request, request.changes.filter((c) => c.id !== event.before.id), event.resetApprovals, at));
    case 'change-request.discarded':
      return draft.delete(event.id);
    case 'change-request.title-set':
      return draft.set({ ...request, title: event.title });
    case 'change-request.commented':
      draft.lastCommentId = Math.max(draft.lastCommentId, event.comment.id);
      return draft.set({ ...request, comments: [...request.comments, event.comment] });
    case 'change-request.reviewers-set':
      return draft.set({ ...request, reviewers: event.reviewers });
    case 'change-request.sent-to-review':
      return draft.set(entered(request, 'In review', at));
    case 'change-request.approval-added':
      return draft.set({ ...request, approvals: [...request.approvals, { by: event.by, at }] });
    case 'change-request.approved':
      return draft.set(entered(request, 'Approved', at));
    case 'change-request.rejected':
      return closed(draft, { ...entered(request, 'Rejected', at), rejections: [...request.rejections, { by: event.by, at }] });
    case 'change-request.cancelled':
      return closed(draft, entered(request, 'Cancelled', at));
    case 'change-request.scheduled':
      return draft.set({ ...entered(request, 'Scheduled', at), schedule: event.schedule });
    case 'change-request.applied': {
      const next: ChangeRequest = { ...entered(request, 'Applied', at), applied: { at, by: event.by, scheduled: event.scheduled } };
      return closed(draft, event.segmentsPending ? { ...next, segmentsPending: true } : next);
    }
    case 'change-request.schedule-failed':
      return draft.set({ ...request, schedule: { ...request.schedule!, status: 'failed', reason: event.reason } });
    case 'change-request.schedule-suspended':
      return draft.set({ ...request, schedule: { ...request.schedule!, status: 'suspended', reason: event.reason } });
    case 'change-request.segments-settled': {
      const { segmentsPending: _done, ...rest } = request;
      return draft.set(rest);
    }
  }
}

/**
 * Sets a request that just closed and forgets the oldest closed ones past {@link CHANGE_REQUESTS_KEPT_CLOSED}
 * (their records stay in the log: the history still shows them).
 */
function closed(draft: ChangeRequestDraft, request: ChangeRequest): void {
  draft.set(request);
  const closedIds: number[] = [];
  for (const r of draft.all()) if (changeRequestRules.isClosed(r.state) && !r.segmentsPending) closedIds.push(r.id);
  for (const id of closedIds.slice(0, Math.max(0, closedIds.length - CHANGE_REQUESTS_KEPT_CLOSED))) draft.delete(id);
}
