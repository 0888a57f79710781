/**
 * A change request's events as Unleash Enterprise's (reference §1.9): each carries the project, the environment
 * and `data.changeRequestId` (the texts link to the request with it), the change events their flag as
 * `featureName`. The flag events an applied request made come in the same record and are mapped as any flag's.
 */
import { unleashEventTypes, type ChangeRequestEvent } from '../domain/change-request-events.js';
import type { EventDraft } from './project-event-map.js';

/** What Unleash's event carries beside the request's id, per event. */
function extras(event: ChangeRequestEvent): { data: Record<string, unknown>; preData?: Record<string, unknown>; featureName?: string | null } {
  switch (event.type) {
    case 'change-request.configured':
      return {
        data: { changeRequestsEnabled: event.requiredApprovals !== null, requiredApprovals: event.requiredApprovals },
        preData: { changeRequestsEnabled: event.before !== null, requiredApprovals: event.before },
      };
    case 'change-request.change-added':
      return { data: { change: event.change }, featureName: event.change.feature ?? null };
    case 'change-request.change-edited':
      return { data: { change: event.change }, preData: { change: event.before }, featureName: event.change.feature ?? null };
    case 'change-request.change-discarded':
      return { data: {}, preData: { change: event.before }, featureName: event.before.feature ?? null };
    case 'change-request.created':
      return { data: { title: event.request.title } };
    case 'change-request.reviewers-set':
      return { data: { reviewers: event.reviewers }, preData: { reviewers: event.before } };
    case 'change-request.scheduled':
      return { data: { scheduledDate: event.schedule.scheduledAt }, ...(event.before ? { preData: { scheduledDate: event.before.scheduledAt } } : {}) };
    case 'change-request.applied':
      return { data: { title: event.title, ...(event.conflicts.length > 0 ? { overwrittenConflicts: event.conflicts } : {}) } };
    case 'change-request.schedule-failed':
    case 'change-request.schedule-suspended':
      return { data: { reason: event.reason } };
    default:
      return { data: {} };
  }
}

/**
 * The Unleash events of one change-request event: none for what Unleash records none of (a title, a comment), two
 * for an apply by its schedule (`change-request-applied` and `change-request-scheduled-application-success`).
 *
 * @example changeRequestEventDrafts('default', { type: 'change-request.approved', id: 4, environment: 'production', at })
 *   // [{ type: 'change-request-approved', data: { changeRequestId: 4 }, project: 'default', environment: 'production', ... }]
 */
export function changeRequestEventDrafts(project: string, event: ChangeRequestEvent): EventDraft[] {
  const types = unleashEventTypes(event);
  if (types.length === 0) return [];
  const { data, preData, featureName } = extras(event);
  const id = 'id' in event ? { changeRequestId: event.id } : {};
  return types.map((type) => ({
    type, data: { ...id, ...data }, preData: preData ? { ...id, ...preData } : null, tags: [],
    featureName: featureName ?? null, project, environment: event.environment,
  }));
}
