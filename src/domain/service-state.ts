/** Service-wide data: environments, users, API tokens, segments, tag types, context fields and strategy definitions (everything that is not inside one project). */
import { BUILT_IN_CONTEXT_FIELDS, BUILT_IN_STRATEGIES, type ContextField, type LegalValue, type StrategyDefinition, type TagType } from './definitions.js';
import type { Segment, SegmentInput, SegmentUse } from './segment.js';

export interface Environment {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  protected: boolean;
}

export interface User {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  rootRole: number;
  createdAt: string;
}

export type TokenType = 'admin' | 'client' | 'frontend' | 'personal';

/** A stored token: only a hash of its secret is kept (docs/storage.md "Token hashes"). */
export interface StoredToken {
  /**
   * Random, non-secret id used by listings, DELETE and dumps. Not derived from the hash, so showing it
   * reveals nothing about the secret.
   */
  id: string;
  /**
   * Hex HMAC-SHA256 of the secret under the installation's token key (kept outside the data directory); for a
   * record written before keyed hashes, the plain SHA-256, until its first use re-stores it (`token.rehash`).
   * Also the token's identity in the store. Never dumped, listed or answered, except in a live backup (admin only,
   * `GET /api/admin/backup`), which must bring tokens back on restore.
   */
  hash: string;
  tokenName: string;
  type: TokenType;
  projects: string[];
  environment: string;
  createdAt: string;
  expiresAt: string | null;
  /** For personal tokens: whose they are. */
  userId: number | null;
  /**
   * Only in records written before keyed hashes: the secret's label plus its first 4 random characters.
   * Never shown (listings derive the label from the scope); dropped when the record is re-stored.
   */
  prefix?: string;
}

/** A tag type (docs/api-decisions.md "Tags"): the `type` half of a tag. */
export type { TagType };

/** The tag type every service has from the start, as in Unleash. */
export const SIMPLE_TAG_TYPE: TagType = Object.freeze({ name: 'simple', description: 'Used to simplify filtering of features', icon: '#', color: null }) as TagType;

export interface ServiceState {
  environments: Environment[];
  users: Record<string, User>;
  nextUserId: number;
  tokens: Record<string, StoredToken>;
  /** By id (as string key). */
  segments: Record<string, Segment>;
  nextSegmentId: number;
  /** In creation order; a list (not a record keyed by name) because any URL-friendly name is allowed, `__proto__` too. */
  tagTypes: TagType[];
  /** Context fields in creation order (the built-in ones first); a list for the same reason as `tagTypes`. */
  contextFields: ContextField[];
  /** Strategy definitions, the built-in ones first, then the custom ones in creation order. */
  strategyDefinitions: StrategyDefinition[];
}

/** An environment as created: `sortOrder` absent means after every existing one (decided in the mailbox). */
export type NewEnvironment = Omit<Environment, 'sortOrder'> & { sortOrder?: number | undefined };

export type ServiceCommand =
  | { type: 'service.init'; state: ServiceState }
  | { type: 'environment.create'; environment: NewEnvironment }
  /** Changes an environment's `type` and/or `sortOrder` (Unleash's `PUT .../environments/update/:name`). */
  | { type: 'environment.update'; name: string; environmentType?: string | undefined; sortOrder?: number | undefined }
  /** Enables or disables an environment (`.../environments/:name/on|off`). */
  | { type: 'environment.toggle'; name: string; enabled: boolean }
  /** New sort orders of the listed environments (`PUT .../environments/sort-order`); every name must exist. */
  | { type: 'environment.sort'; order: { name: string; sortOrder: number }[] }
  /** Deletes an environment no project uses any more (the caller released it from every project first). */
  | { type: 'environment.delete'; name: string }
  /** A deleted project's traces: tokens scoped to it alone are revoked, others lose it; its segments go. */
  | { type: 'project.forget'; project: string }
  | { type: 'user.create'; user: Omit<User, 'id' | 'createdAt'> }
  | { type: 'user.delete'; userId: number }
  | { type: 'token.create'; token: StoredToken }
  | { type: 'token.delete'; hash: string }
  /** Re-stores the token with this id under `hash` (its HMAC): the upgrade of a record from before keyed hashes. */
  | { type: 'token.rehash'; id: string; hash: string }
  | { type: 'segment.create'; segment: SegmentInput; createdBy: string | null }
  | { type: 'segment.update'; id: number; segment: SegmentInput }
  | { type: 'segment.delete'; id: number }
  | { type: 'tag-type.create'; tagType: TagType }
  | { type: 'tag-type.update'; tagType: TagType }
  /** The caller checked, in the registry's tag mailbox, that no flag carries a tag of this type. */
  | { type: 'tag-type.delete'; name: string }
  | { type: 'context-field.create'; field: ContextField }
  /** Replaces the description, stickiness, sortOrder (when given) and legal values of a field. */
  | { type: 'context-field.update'; field: Omit<ContextField, 'createdAt' | 'sortOrder'> & { sortOrder?: number | undefined } }
  | { type: 'context-field.delete'; name: string }
  /** Adds a legal value to a field, or replaces the one with the same `value` (Unleash's `updateLegalValue`). */
  | { type: 'context-field.legal-value.set'; name: string; legalValue: LegalValue }
  /** Removes a legal value from a field; one it lacks changes nothing. */
  | { type: 'context-field.legal-value.delete'; name: string; value: string }
  | { type: 'strategy-definition.create'; definition: StrategyDefinition }
  | { type: 'strategy-definition.update'; definition: StrategyDefinition }
  | { type: 'strategy-definition.deprecate'; name: string; deprecated: boolean }
  | { type: 'strategy-definition.delete'; name: string };

/** What each service command answers when accepted. */
export interface ServiceReplies {
  'service.init': null;
  'environment.create': Environment;
  'environment.update': Environment;
  'environment.toggle': Environment;
  'environment.sort': null;
  'environment.delete': Environment;
  'project.forget': null;
  'user.create': User;
  'user.delete': User;
  'token.create': StoredToken;
  'token.delete': StoredToken;
  'token.rehash': StoredToken;
  'segment.create': Segment;
  'segment.update': Segment;
  'segment.delete': Segment;
  'tag-type.create': TagType;
  'tag-type.update': TagType;
  'tag-type.delete': TagType;
  'context-field.create': ContextField;
  'context-field.update': ContextField;
  'context-field.delete': ContextField;
  'context-field.legal-value.set': ContextField;
  'context-field.legal-value.delete': ContextField;
  'strategy-definition.create': StrategyDefinition;
  'strategy-definition.update': StrategyDefinition;
  'strategy-definition.deprecate': StrategyDefinition;
  'strategy-definition.delete': StrategyDefinition;
}

export type ServiceEvent =
  | { type: 'service.initialized'; state: ServiceState }
  | { type: 'environment.created'; environment: Environment }
  | { type: 'environment.updated'; environment: Environment; before: Environment }
  | { type: 'environment.deleted'; environment: Environment }
  /** See the `project.forget` command: what it removes follows from the state, so replay removes the same. */
  | { type: 'project.forgotten'; project: string }
  | { type: 'user.created'; user: User }
  | { type: 'user.deleted'; user: User }
  | { type: 'token.created'; token: StoredToken }
  | { type: 'token.deleted'; token: StoredToken }
  /** Carries the token's id and new hash only, so the record adds no copy of the unkeyed hash it replaces. */
  | { type: 'token.rehashed'; id: string; hash: string }
  | { type: 'segment.created'; segment: Segment }
  | { type: 'segment.updated'; segment: Segment; before: Segment }
  | { type: 'segment.deleted'; segment: Segment }
  | { type: 'tag-type.created'; tagType: TagType }
  | { type: 'tag-type.updated'; tagType: TagType; before: TagType }
  | { type: 'tag-type.deleted'; tagType: TagType }
  | { type: 'context-field.created'; field: ContextField }
  | { type: 'context-field.updated'; field: ContextField; before: ContextField }
  | { type: 'context-field.deleted'; field: ContextField }
  | { type: 'strategy-definition.created'; definition: StrategyDefinition }
  | { type: 'strategy-definition.updated'; definition: StrategyDefinition; before: StrategyDefinition }
  | { type: 'strategy-definition.deleted'; definition: StrategyDefinition };

/** A token re-stored under `hash`: the same record, without the legacy `prefix` (which held part of the secret). */
export function rehashedToken(token: StoredToken, hash: string): StoredToken {
  const { prefix: _legacy, ...rest } = token;
  return { ...rest, hash };
}

/** The key a token with this id is stored under, if any. */
export const hashOfTokenId = (state: ServiceState, id: string): string | undefined =>
  Object.keys(state.tokens).find((hash) => state.tokens[hash]!.id === id);

/**
 * A copy whose collections can be changed without touching the committed state. Snapshots, dumps and
 * `service.initialized` records written before segments existed lack their two fields: they start empty.
 */
export const forkService = (state: ServiceState): ServiceState => ({
  environments: [...state.environments],
  users: { ...state.users },
  nextUserId: state.nextUserId,
  tokens: { ...state.tokens },
  segments: { ...(state.segments ?? {}) },
  nextSegmentId: state.nextSegmentId ?? 1,
  // Records from before tag types hold none: the service then has the one every service starts with.
  tagTypes: [...(state.tagTypes ?? [SIMPLE_TAG_TYPE])],
  // Records from before context fields and strategy definitions hold none: the service then has the built-in ones.
  contextFields: [...(state.contextFields ?? BUILT_IN_CONTEXT_FIELDS)],
  strategyDefinitions: [...(state.strategyDefinitions ?? BUILT_IN_STRATEGIES)],
});

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

/** The tokens `project.forget` would change, and the segments it would delete (for its answer and its test). */
export function projectTraces(state: ServiceState, project: string): { tokens: number; segments: number } {
  const tokens = Object.values(state.tokens).filter((t) => t.projects.includes(project)).length;
  const segments = Object.values(state.segments).filter((s) => s.project === project).length;
  return { tokens, segments };
}

/** Applies one service event to a (forked) state. */
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
      for (const [hash, token] of Object.entries(draft.tokens)) if (token.userId === event.user.id) delete draft.tokens[hash];
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
  }
}

/** Where a segment is referenced, from the committed project states. */
export interface SegmentUsage {
  uses: SegmentUse[];
  /** Projects whose state could not be recovered: whether they reference it is unknown. */
  unreadable: string[];
}

/** What the service's decisions may look up outside its own state (read, never changed). */
export interface ServiceLookups {
  /** Whether a project with this id exists (token scopes and project segments name projects). */
  projectExists(id: string): boolean;
  /** Where segment `id` is referenced in the committed project states. */
  segmentUses(id: number): SegmentUsage;
  /** The projects connected to an environment, in the committed project states. */
  environmentProjects(name: string): string[];
}
