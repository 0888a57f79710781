/**
 * The service's committed events as Unleash's events: environments, users, API tokens, segments, tag types,
 * context fields, strategy definitions and addons. Secrets never enter an event: a token is its name and scope,
 * an addon is shown without its parameters (as Unleash's `addon-config-*` events).
 */
import type { Addon } from '../domain/addons/addon.js';
import type { ServiceEvent } from '../domain/service-events.js';
import type { StoredToken, User } from '../domain/service-state.js';
import type { EventDraft } from './project-event-map.js';

const draft = (type: string, fields: Partial<EventDraft> = {}): EventDraft => ({
  type, data: fields.data ?? null, preData: fields.preData ?? null, tags: [],
  featureName: null, project: fields.project ?? null, environment: fields.environment ?? null,
});

/** A user as Unleash's user events carry one (its `mapUserToData`). */
const userData = (u: User) => ({ id: u.id, name: u.name, username: u.username, email: u.email });

/** A token as its events carry it: name and scope, never its hash. */
const tokenData = (t: StoredToken) => ({
  tokenName: t.tokenName, username: t.tokenName, type: t.type, projects: t.projects, project: t.projects.length === 1 ? t.projects[0] : '[]',
  environment: t.environment, expiresAt: t.expiresAt, createdAt: t.createdAt,
});

/** The scope of a token event: its one project and environment, or none when it spans several (`*`). */
const tokenScope = (t: StoredToken) => ({
  project: t.projects.length === 1 && t.projects[0] !== '*' ? t.projects[0] : undefined,
  environment: t.environment === '*' ? undefined : t.environment,
});

/** An addon as its events carry it: without its parameters. */
const addonData = ({ parameters: _secret, ...rest }: Addon) => rest;

/**
 * The Unleash events of one service event (none for what Unleash records no event for: passwords, links, rehashes).
 *
 * @example serviceEventDrafts({ type: 'context-field.deleted', field })[0].type // 'context-field-deleted'
 */
export function serviceEventDrafts(event: ServiceEvent): EventDraft[] {
  switch (event.type) {
    case 'environment.created':
      return [draft('environment-created', { data: event.environment })];
    case 'environment.updated':
      return [draft('environment-updated', { data: event.environment, preData: event.before })];
    case 'environment.deleted':
      return [draft('environment-deleted', { preData: event.environment })];
    case 'user.created':
      return [draft('user-created', { data: userData(event.user) })];
    case 'user.updated':
      return [draft('user-updated', { data: userData(event.user), preData: userData(event.before) })];
    case 'user.deleted':
      return [draft('user-deleted', { preData: userData(event.user) })];
    case 'token.created':
      return [draft(event.token.type === 'personal' ? 'pat-created' : 'api-token-created', { data: tokenData(event.token), ...tokenScope(event.token) })];
    case 'token.deleted':
      return [draft(event.token.type === 'personal' ? 'pat-deleted' : 'api-token-deleted', { preData: tokenData(event.token), ...tokenScope(event.token) })];
    case 'segment.created':
      return [draft('segment-created', { data: event.segment, project: event.segment.project ?? undefined })];
    case 'segment.updated':
      return [draft('segment-updated', { data: event.segment, preData: event.before, project: event.segment.project ?? undefined })];
    case 'segment.deleted':
      return [draft('segment-deleted', { preData: event.segment, project: event.segment.project ?? undefined })];
    case 'tag-type.created':
      return [draft('tag-type-created', { data: event.tagType })];
    case 'tag-type.updated':
      return [draft('tag-type-updated', { data: event.tagType, preData: event.before })];
    case 'tag-type.deleted':
      return [draft('tag-type-deleted', { preData: event.tagType })];
    case 'context-field.created':
      return [draft('context-field-created', { data: event.field })];
    case 'context-field.updated':
      return [draft('context-field-updated', { data: event.field, preData: event.before })];
    case 'context-field.deleted':
      return [draft('context-field-deleted', { preData: event.field })];
    case 'strategy-definition.created':
      return [draft('strategy-created', { data: event.definition })];
    case 'strategy-definition.updated': {
      const { definition, before } = event;
      if (definition.deprecated !== before.deprecated) return [draft(definition.deprecated ? 'strategy-deprecated' : 'strategy-reactivated', { data: { name: definition.name } })];
      return [draft('strategy-updated', { data: definition, preData: before })];
    }
    case 'strategy-definition.deleted':
      return [draft('strategy-deleted', { preData: event.definition })];
    case 'addon.created':
      return [draft('addon-config-created', { data: addonData(event.addon) })];
    case 'addon.updated':
      return [draft('addon-config-updated', { data: addonData(event.addon), preData: addonData(event.before) })];
    case 'addon.deleted':
      return [draft('addon-config-deleted', { preData: addonData(event.addon) })];
    case 'service.initialized':
    case 'project.forgotten':
    case 'user.password-set':
    case 'user.password-link-created':
    case 'user.password-links-ended':
    case 'token.rehashed':
      return [];
  }
}
