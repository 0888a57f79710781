/**
 * A project's committed events as Unleash's events (docs/api-decisions.md "Integrations" lists the pairs): one
 * flagpole event gives none, one or a few Unleash events, with Unleash's `data` and `preData`.
 */
import type { ProjectEvent } from '../domain/events.js';
import type { Flag, ProjectMeta, StrategyOrder, Tag } from '../domain/types.js';
import { flagData, strategyData } from './unleash-event.js';

/** An Unleash event before its id, time and author are set. */
export interface EventDraft {
  type: string;
  data: unknown;
  preData: unknown;
  tags: Tag[];
  featureName: string | null;
  project: string | null;
  environment: string | null;
}

/** What the mapping reads of the committed state: the flag as it is now (tags, fields an event does not carry). */
export type FlagLookup = (name: string) => Flag | undefined;

const draft = (type: string, project: string, fields: Partial<EventDraft> = {}): EventDraft => ({
  type, data: fields.data ?? null, preData: fields.preData ?? null, tags: fields.tags ?? [],
  featureName: fields.featureName ?? null, project, environment: fields.environment ?? null,
});

/** The ids in sortOrder order: `strategy-order-changed` carries `{strategyIds}`. */
const idsInOrder = (order: StrategyOrder[]) => ({ strategyIds: [...order].sort((a, b) => a.sortOrder - b.sortOrder).map((o) => o.id) });

/** A project as Unleash's project events carry it. */
const projectData = (meta: ProjectMeta) => ({ id: meta.id, name: meta.name, description: meta.description, mode: meta.mode ?? 'open', defaultStickiness: meta.defaultStickiness ?? 'default' });

/** The project events a settings change gives: deletion, members, environments, default strategies, the settings. */
function projectChanges(project: string, meta: ProjectMeta, before: ProjectMeta): EventDraft[] {
  if (meta.deleted && !before.deleted) return [draft('project-deleted', project)];
  const out: EventDraft[] = [];
  for (const [userId, roleId] of Object.entries(meta.members)) {
    const was = before.members[userId];
    if (was === undefined) out.push(draft('project-user-added', project, { data: { userId: Number(userId), roleId } }));
    else if (was !== roleId) out.push(draft('project-user-role-changed', project, { data: { userId: Number(userId), roleId }, preData: { userId: Number(userId), roleId: was } }));
  }
  for (const [userId, roleId] of Object.entries(before.members)) {
    if (meta.members[userId] === undefined) out.push(draft('project-user-removed', project, { preData: { userId: Number(userId), roleId } }));
  }
  for (const environment of meta.environments) {
    if (!before.environments.includes(environment)) out.push(draft('project-environment-added', project, { environment }));
  }
  for (const [environment, strategy] of Object.entries(meta.defaultStrategies)) {
    const was = before.defaultStrategies[environment];
    if (JSON.stringify(was) !== JSON.stringify(strategy)) out.push(draft('default-strategy-updated', project, { environment, data: strategy, preData: was ?? null }));
  }
  if (JSON.stringify(projectData(meta)) !== JSON.stringify(projectData(before))) {
    out.push(draft('project-updated', project, { data: projectData(meta), preData: projectData(before) }));
  }
  return out;
}

/**
 * The Unleash events of one project event. `flagNow` reads the flag's committed state for what the event does not
 * carry (its tags, its creation time); a flag gone since is read from the event alone.
 *
 * @example projectEventDrafts('default', { type: 'flag.disabled', name: 'f', version: 3, environment: 'production' }, lookup)
 *   // [{ type: 'feature-environment-disabled', featureName: 'f', project: 'default', environment: 'production', ... }]
 */
export function projectEventDrafts(project: string, event: ProjectEvent, flagNow: FlagLookup): EventDraft[] {
  switch (event.type) {
    case 'project.created':
      return [draft('project-created', project, { data: projectData(event.meta) })];
    case 'project.updated':
      return projectChanges(project, event.meta, event.before);
    case 'environment.disconnected':
      return [draft('project-environment-removed', project, { environment: event.environment })];
    case 'flag.created':
      return [draft('feature-created', project, { featureName: event.flag.name, data: flagData(event.flag, project), tags: event.flag.tags ?? [] })];
    case 'flag.deleted':
      return [draft('feature-deleted', project, { featureName: event.name, preData: flagData(event.before, project), tags: event.before.tags ?? [] })];
    default:
      return flagEventDrafts(project, event, flagNow(event.name));
  }
}

type OnFlag = Exclude<ProjectEvent, { type: 'project.created' | 'project.updated' | 'environment.disconnected' | 'flag.created' | 'flag.deleted' }>;

/** The Unleash events of an event on an existing flag (`flag` as committed now, if it still exists). */
function flagEventDrafts(project: string, event: OnFlag, flag: Flag | undefined): EventDraft[] {
  const tags = flag?.tags ?? [];
  const on = (type: string, fields: Partial<EventDraft> = {}) => draft(type, project, { featureName: event.name, tags, ...fields });
  switch (event.type) {
    case 'flag.updated': {
      const base = flag ?? { name: event.name, createdAt: '', lastSeenAt: null, archived: false };
      const out: EventDraft[] = [];
      const onlyStale = event.before.description === event.after.description && event.before.type === event.after.type && event.before.impressionData === event.after.impressionData;
      if (!onlyStale) out.push(on('feature-metadata-updated', { data: flagData({ ...base, ...event.after }, project), preData: flagData({ ...base, ...event.before }, project) }));
      if (event.before.stale !== event.after.stale) out.push(on(event.after.stale ? 'feature-stale-on' : 'feature-stale-off'));
      return out;
    }
    case 'flag.archived':
      return [on('feature-archived')];
    case 'flag.revived':
      return [on('feature-revived')];
    case 'strategy.added':
      return [on('feature-strategy-add', { environment: event.environment, data: strategyData(event.strategy) })];
    case 'strategy.updated':
      return [on('feature-strategy-update', { environment: event.environment, data: strategyData(event.strategy), preData: strategyData(event.before) })];
    case 'strategy.deleted':
      return [on('feature-strategy-remove', { environment: event.environment, preData: strategyData(event.before) })];
    case 'strategies.sorted':
      return [on('strategy-order-changed', { environment: event.environment, data: idsInOrder(event.order), preData: idsInOrder(event.before) })];
    case 'flag.enabled': {
      const enabled = on('feature-environment-enabled', { environment: event.environment });
      return event.added ? [on('feature-strategy-add', { environment: event.environment, data: strategyData(event.added) }), enabled] : [enabled];
    }
    case 'flag.disabled':
      return [on('feature-environment-disabled', { environment: event.environment })];
    case 'variants.updated':
      return [on('feature-variants-updated', { data: { variants: event.variants }, preData: { variants: event.before } })];
    case 'flag.tagged':
      return [
        ...event.added.map((tag) => on('feature-tagged', { data: tag })),
        ...event.removed.map((tag) => on('feature-untagged', { preData: tag })),
      ];
    case 'dependency.added':
      return [on('feature-dependency-added', { data: event.dependency })];
    case 'dependencies.removed':
      return event.removed.length === 1
        ? [on('feature-dependency-removed', { data: { feature: event.removed[0]!.feature } })]
        : [on('feature-dependencies-removed')];
    case 'flag.completed':
      return [on('feature-completed', { data: { status: event.completion.status, ...(event.completion.statusValue === undefined ? {} : { statusValue: event.completion.statusValue }), kept: event.completion.status === 'kept' } })];
    case 'flag.uncompleted':
      return [on('feature-uncompleted')];
    case 'flag.imported':
      return [on('feature-import', { data: flagData(event.flag, project), preData: flagData(event.before, project) })];
    case 'flag.stages-entered':
      // Unleash records no event when a flag enters a lifecycle stage (its lifecycle table is not its event log).
      return [];
  }
}
