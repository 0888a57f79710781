/** The project history and a flag's timeline, with the change of each entry in words. */
import type { Registry } from '../../actors/registry.js';
import type { HistoryEntry } from '../../actors/past/history.js';
import type { ProjectEvent } from '../../domain/events.js';
import { ok, type Result } from '../../domain/result.js';
import type { FieldChange } from './change-words.js';
import { changesOf } from './event-diff.js';
import { isoMoment } from './moment.js';

/** The kinds of change a history can be filtered by, each a group of event types. */
export const CHANGE_KINDS = {
  lifecycle: ['flag.created', 'flag.archived', 'flag.revived', 'flag.deleted', 'flag.imported', 'flag.stages-entered', 'flag.completed', 'flag.uncompleted'],
  metadata: ['flag.updated'],
  switch: ['flag.enabled', 'flag.disabled'],
  strategy: ['strategy.added', 'strategy.updated', 'strategy.deleted', 'strategies.sorted'],
  variants: ['variants.updated'],
  tags: ['flag.tagged'],
  dependencies: ['dependency.added', 'dependencies.removed'],
  project: ['project.created', 'project.updated', 'environment.disconnected'],
  'change-request': [
    'change-request.configured', 'change-request.created', 'change-request.change-added', 'change-request.change-edited', 'change-request.change-discarded',
    'change-request.discarded', 'change-request.title-set', 'change-request.commented', 'change-request.reviewers-set', 'change-request.sent-to-review',
    'change-request.approval-added', 'change-request.approved', 'change-request.rejected', 'change-request.cancelled', 'change-request.scheduled',
    'change-request.applied', 'change-request.schedule-failed', 'change-request.schedule-suspended', 'change-request.segments-settled',
  ],
} as const satisfies Record<string, readonly ProjectEvent['type'][]>;

/** A kind of change: `switch` (on/off), `strategy`, `variants`, ... (see {@link CHANGE_KINDS}). */
export type ChangeKind = keyof typeof CHANGE_KINDS;

const KIND_OF = new Map<ProjectEvent['type'], ChangeKind>(
  Object.entries(CHANGE_KINDS).flatMap(([kind, types]) => types.map((type): [ProjectEvent['type'], ChangeKind] => [type, kind as ChangeKind])),
);

/** What a history page lists; every filter given must hold. Times are ISO 8601 (any offset). */
export interface HistoryFilters {
  feature?: string | undefined;
  /** Who sent the command: `user:3`, `admin-token:ci`, `system`. */
  by?: string | undefined;
  kinds?: readonly ChangeKind[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Matching entries to skip (default 0) and the page's size (default 50). */
  offset?: number | undefined;
  limit?: number | undefined;
}

/** One history entry with its kind of change and what it moved, in words. */
export interface TimelineEntry extends HistoryEntry {
  kind: ChangeKind;
  changes: FieldChange[];
}

/** A page of entries, newest first; `hasMore`: older matching entries exist. */
export interface TimelinePage {
  entries: TimelineEntry[];
  offset: number;
  limit: number;
  hasMore: boolean;
}

/**
 * A page of a project's history from its command log, newest first, filtered by flag, person, kind of
 * change and time, each entry with its readable diff. Opening it also starts building, in the background,
 * the checkpoints a past view needs (`ProjectPast.warm`), so a click on an entry's moment answers quickly.
 *
 * @example await projectHistory(registry, 'default', { kinds: ['switch'], from: '2026-03-01T00:00:00Z', limit: 50 })
 */
export async function projectHistory(registry: Registry, projectId: string, filters: HistoryFilters = {}): Promise<Result<TimelinePage>> {
  const past = registry.past(projectId);
  if (!past.ok) return past;
  const from = filters.from === undefined ? undefined : isoMoment(filters.from, 'from');
  const to = filters.to === undefined ? undefined : isoMoment(filters.to, 'to');
  if (from && !from.ok) return from;
  if (to && !to.ok) return to;
  const types = filters.kinds === undefined ? undefined : new Set<ProjectEvent['type']>(filters.kinds.flatMap((kind) => CHANGE_KINDS[kind]));
  const page = await past.value.history({
    feature: filters.feature, by: filters.by, types, from: from?.value, to: to?.value, offset: filters.offset ?? 0, limit: filters.limit ?? 50,
  });
  if (!page.ok) return page;
  void past.value.warm();
  const entries = page.value.events.map((entry) => Object.assign(entry, { kind: KIND_OF.get(entry.type)!, changes: changesOf(entry) }));
  return ok({ entries, offset: page.value.offset, limit: page.value.limit, hasMore: page.value.hasMore });
}

/**
 * A flag's timeline: the project history of that one flag (the same filters, but `feature`).
 *
 * @example await flagTimeline(registry, 'default', 'checkout', { limit: 20 })
 */
export function flagTimeline(registry: Registry, projectId: string, feature: string, filters: Omit<HistoryFilters, 'feature'> = {}): Promise<Result<TimelinePage>> {
  return projectHistory(registry, projectId, Object.assign({}, filters, { feature }));
}

/**
 * The people a project's history names, for its person filter: the users whose commands its log holds, by
 * the `by` they are recorded with (`user:3`) → how a page names them: their name or username, and their email
 * only for a caller who may list users (`withEmails`), else `User <id>`. Nobody else is offered.
 *
 * @example await historyPeople(registry, 'default', false) // Map { 'user:3' => 'Ann' }
 */
export async function historyPeople(registry: Registry, projectId: string, withEmails: boolean): Promise<Result<Map<string, string>>> {
  const past = registry.past(projectId);
  if (!past.ok) return past;
  const found = await past.value.people();
  if (!found.ok) return found;
  const users = registry.service.state.users;
  const people = new Map<string, string>();
  for (const by of found.value) {
    const id = /^user:(\d+)$/.exec(by)?.[1];
    const user = id === undefined || !Object.hasOwn(users, id) ? undefined : users[id]!;
    if (user) people.set(by, user.name ?? user.username ?? (withEmails ? user.email : null) ?? `User ${user.id}`);
  }
  return ok(new Map([...people].sort((a, b) => a[1].localeCompare(b[1]))));
}

