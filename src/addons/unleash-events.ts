/**
 * A committed log record as the Unleash events addons receive (docs/api-decisions.md "Integrations"): each event
 * of the record through `project-event-map.ts` or `service-event-map.ts`, then stamped with the record's time and
 * author and a stable id.
 *
 * Change requests: their events (Unleash's `change-request-*` and `change-*`, `CHANGE_REQUEST_EVENTS` in
 * `src/domain/addons/unleash-event-types.ts`, which the providers already offer) are mapped where the change
 * requests' own events are recorded: a case per event in `projectEventDrafts` (or a scope of their own here), with
 * `data.changeRequestId` set, which the texts (`event-markdown.ts`) already link to.
 */
import type { Scope } from '../../snapshots/keys.js';
import type { ProjectEvent } from '../domain/events.js';
import type { ServiceEvent } from '../domain/service-events.js';
import type { User } from '../domain/service-state.js';
import type { Flag } from '../domain/types.js';
import { projectEventDrafts, type EventDraft } from './project-event-map.js';
import { serviceEventDrafts } from './service-event-map.js';
import { actorOf, eventId, type UnleashEvent } from './unleash-event.js';

/** One committed log record of a scope: what the delivery loop reads, from the feed or the store. */
export interface CommittedEntry {
  scope: Scope;
  seq: number;
  at: string;
  by: string;
  events: readonly unknown[];
}

/** What the mapping reads of the committed state. */
export interface EventLookups {
  user(id: number): User | undefined;
  /** A flag as committed now (undefined once deleted, or for an unknown project). */
  flag(project: string, name: string): Flag | undefined;
}

/** A scope as one text (`service`, `p/<project>`): part of every event id. */
export const scopeName = (scope: Scope): string => (scope === 'service' ? 'service' : `p/${scope.project}`);

/**
 * The Unleash events of a record, in order, each with the record's time and author.
 *
 * @example unleashEventsOf({ scope: { project: 'default' }, seq: 4, at, by: 'admin-token:ci', events: [...] }, lookups)
 */
export function unleashEventsOf(entry: CommittedEntry, lookups: EventLookups): UnleashEvent[] {
  const drafts: EventDraft[] = [];
  const { scope } = entry;
  if (scope === 'service') {
    for (const event of entry.events) drafts.push(...serviceEventDrafts(event as ServiceEvent));
  } else {
    const flagNow = (name: string) => lookups.flag(scope.project, name);
    for (const event of entry.events) drafts.push(...projectEventDrafts(scope.project, event as ProjectEvent, flagNow));
  }
  if (drafts.length === 0) return [];
  const actor = actorOf(entry.by, (id) => lookups.user(id));
  const name = scopeName(scope);
  return drafts.map((d, index) => ({
    id: eventId(name, entry.seq, index), type: d.type, createdBy: actor.createdBy, createdAt: entry.at, createdByUserId: actor.createdByUserId,
    data: d.data, preData: d.preData, tags: d.tags, featureName: d.featureName, project: d.project, environment: d.environment,
  }));
}
