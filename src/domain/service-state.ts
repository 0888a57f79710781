/** Service-wide data: environments, users, API tokens, segments, tag types, context fields and strategy definitions (everything that is not inside one project). */
import { BUILT_IN_CONTEXT_FIELDS, BUILT_IN_STRATEGIES, type ContextField, type StrategyDefinition, type TagType } from './definitions.js';
import type { Segment } from './segment.js';
import type { Addon } from './addons/addon.js';

/** An environment of the service (Unleash's): projects connect to it; flags have an entry per environment. */
export interface Environment {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  protected: boolean;
}

/** A user of the admin API; `rootRole` is one of `roles.ts`. */
export interface User {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  rootRole: number;
  createdAt: string;
}

/**
 * A one-time link to set a user's password, stored under the keyed hash of its secret (`src/auth/password-links.ts`);
 * the secret itself is shown once to the admin who made it and kept nowhere.
 */
export interface PasswordLink {
  userId: number;
  createdAt: string;
  /** After this moment the link sets nothing (docs/limits.md "Sign-in"). */
  expiresAt: string;
}

/** What a token may reach: the admin API, the client (SDK) API, the frontend API, or a user's own admin access. */
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

/** The committed state of the service actor (see the module comment). */
export interface ServiceState {
  environments: Environment[];
  users: Record<string, User>;
  /**
   * Password hashes by user id (`src/auth/passwords.ts`: scrypt, salted, with its parameters), beside the users
   * rather than on them, so no view, principal or log line of a `User` can carry one. Never dumped, listed or
   * answered; a live backup carries them as it carries token hashes (docs/storage.md "Token hashes").
   */
  passwords: Record<string, string>;
  nextUserId: number;
  /**
   * Unused one-time password links by the keyed hash of their secret, at most one per user. Absent until the
   * first link is made (so states from before links, and their dumps and backups, stay as they were); never
   * dumped or answered.
   */
  passwordLinks?: Record<string, PasswordLink>;
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
  /**
   * Addons (integrations) by id, with their secrets (`src/domain/addons/addon.ts`): never answered, dumped or logged
   * unmasked; a live backup carries them. Absent until the first addon is created, with `nextAddonId`, so states
   * from before addons (and their dumps and backups) stay as they were.
   */
  addons?: Record<string, Addon>;
  nextAddonId?: number;
}

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
  // Records from before passwords hold none: every user then signs in with a token only.
  passwords: { ...(state.passwords ?? {}) },
  nextUserId: state.nextUserId,
  ...(state.passwordLinks === undefined ? {} : { passwordLinks: { ...state.passwordLinks } }),
  tokens: { ...state.tokens },
  segments: { ...(state.segments ?? {}) },
  nextSegmentId: state.nextSegmentId ?? 1,
  // Records from before tag types hold none: the service then has the one every service starts with.
  tagTypes: [...(state.tagTypes ?? [SIMPLE_TAG_TYPE])],
  // Records from before context fields and strategy definitions hold none: the service then has the built-in ones.
  contextFields: [...(state.contextFields ?? BUILT_IN_CONTEXT_FIELDS)],
  strategyDefinitions: [...(state.strategyDefinitions ?? BUILT_IN_STRATEGIES)],
  ...(state.addons === undefined ? {} : { addons: { ...state.addons }, nextAddonId: state.nextAddonId ?? 1 }),
});

/** The tokens `project.forget` would change, and the segments it would delete (for its answer and its test). */
export function projectTraces(state: ServiceState, project: string): { tokens: number; segments: number } {
  const tokens = Object.values(state.tokens).filter((t) => t.projects.includes(project)).length;
  const segments = Object.values(state.segments).filter((s) => s.project === project).length;
  return { tokens, segments };
}
