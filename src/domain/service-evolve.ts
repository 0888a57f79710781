/** How the service state changes with each of its events: the same step for a decision and for replay. */
import { forkService, hashOfTokenId, rehashedToken, type Environment, type ServiceState } from './service-state.js';
import type { ServiceEvent } from './service-events.js';

/** Environments are listed by `sortOrder`, then name. */
const byEnvironmentOrder = (a: Environment, b: Environment) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name);

/**
 * Removes a deleted project from the service, as Unleash does: a token scoped to it alone is revoked, a token
 * scoped to it among others loses it; segments scoped to it are deleted (no flag can use them any more).
 */
function forgetProject(draft: ServiceState, project: string): void {
  for (const [hash, token] of Object.entries(draft.tokens)) {
    if (!token.projects.includes(project)) continue;
    if (token.projects.length === 1) delete draft.tokens[hash];
    else draft.tokens[hash] = { ...token, projects: token.projects.filter((p) => p !== project) };
  }
  for (const [id, segment] of Object.entries(draft.segments)) if (segment.project === project) delete draft.segments[id];
}

/** Removes every password link of a user. */
function endPasswordLinks(draft: ServiceState, userId: number): void {
  const links = draft.passwordLinks;
  if (links === undefined) return;
  for (const [hash, link] of Object.entries(links)) if (link.userId === userId) delete links[hash];
}

/**
 * Applies one service event to a (forked) state.
 *
 * @example evolveService(draft, { type: 'tag-type.created', tagType })
 */
export function evolveService(draft: ServiceState, event: ServiceEvent): void {
  switch (event.type) {
    case 'service.initialized':
      Object.assign(draft, forkService(event.state));
      return;
    case 'environment.created':
      draft.environments.push(event.environment);
      draft.environments.sort(byEnvironmentOrder);
      return;
    case 'environment.updated':
      draft.environments = draft.environments.map((e) => (e.name === event.environment.name ? event.environment : e));
      draft.environments.sort(byEnvironmentOrder);
      return;
    case 'environment.deleted':
      draft.environments = draft.environments.filter((e) => e.name !== event.environment.name);
      return;
    case 'project.forgotten':
      forgetProject(draft, event.project);
      return;
    case 'user.created':
      draft.users[String(event.user.id)] = event.user;
      draft.nextUserId = Math.max(draft.nextUserId, event.user.id + 1);
      return;
    case 'user.deleted':
      delete draft.users[String(event.user.id)];
      delete draft.passwords[String(event.user.id)];
      endPasswordLinks(draft, event.user.id);
      for (const [hash, token] of Object.entries(draft.tokens)) if (token.userId === event.user.id) delete draft.tokens[hash];
      return;
    case 'user.password-set':
      draft.passwords[String(event.userId)] = event.passwordHash;
      return;
    case 'user.updated':
      draft.users[String(event.user.id)] = event.user;
      return;
    case 'user.password-link-created':
      endPasswordLinks(draft, event.userId);
      (draft.passwordLinks ??= {})[event.hash] = { userId: event.userId, createdAt: event.createdAt, expiresAt: event.expiresAt };
      return;
    case 'user.password-links-ended':
      endPasswordLinks(draft, event.userId);
      return;
    case 'token.created':
      draft.tokens[event.token.hash] = event.token;
      return;
    case 'token.deleted':
      delete draft.tokens[event.token.hash];
      return;
    case 'token.rehashed': {
      const old = hashOfTokenId(draft, event.id);
      if (old === undefined) return;
      const token = rehashedToken(draft.tokens[old]!, event.hash);
      delete draft.tokens[old];
      draft.tokens[event.hash] = token;
      return;
    }
    case 'segment.created':
      draft.segments[String(event.segment.id)] = event.segment;
      draft.nextSegmentId = Math.max(draft.nextSegmentId, event.segment.id + 1);
      return;
    case 'segment.updated':
      draft.segments[String(event.segment.id)] = event.segment;
      return;
    case 'segment.deleted':
      delete draft.segments[String(event.segment.id)];
      return;
    case 'tag-type.created':
      draft.tagTypes.push(event.tagType);
      return;
    case 'tag-type.updated':
      draft.tagTypes = draft.tagTypes.map((t) => (t.name === event.tagType.name ? event.tagType : t));
      return;
    case 'tag-type.deleted':
      draft.tagTypes = draft.tagTypes.filter((t) => t.name !== event.tagType.name);
      return;
    case 'context-field.created':
      draft.contextFields.push(event.field);
      return;
    case 'context-field.updated':
      draft.contextFields = draft.contextFields.map((f) => (f.name === event.field.name ? event.field : f));
      return;
    case 'context-field.deleted':
      draft.contextFields = draft.contextFields.filter((f) => f.name !== event.field.name);
      return;
    case 'strategy-definition.created':
      draft.strategyDefinitions.push(event.definition);
      return;
    case 'strategy-definition.updated':
      draft.strategyDefinitions = draft.strategyDefinitions.map((d) => (d.name === event.definition.name ? event.definition : d));
      return;
    case 'strategy-definition.deleted':
      draft.strategyDefinitions = draft.strategyDefinitions.filter((d) => d.name !== event.definition.name);
      return;
    case 'addon.created':
      (draft.addons ??= {})[String(event.addon.id)] = event.addon;
      draft.nextAddonId = Math.max(draft.nextAddonId ?? 1, event.addon.id + 1);
      return;
    case 'addon.updated':
      (draft.addons ??= {})[String(event.addon.id)] = event.addon;
      return;
    case 'addon.deleted':
      if (draft.addons) delete draft.addons[String(event.addon.id)];
      return;
  }
}
