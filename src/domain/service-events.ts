/** The events of the service actor: what its log records and replay evolves (`service-evolve.ts`). */
import type { ContextField, StrategyDefinition, TagType } from './definitions.js';
import type { Segment } from './segment.js';
import type { Addon } from './addons/addon.js';
import type { Environment, ServiceState, StoredToken, User } from './service-state.js';

/** One recorded change of the service state. */
export type ServiceEvent =
  | { type: 'service.initialized'; state: ServiceState }
  | { type: 'environment.created'; environment: Environment }
  | { type: 'environment.updated'; environment: Environment; before: Environment }
  | { type: 'environment.deleted'; environment: Environment }
  /** See the `project.forget` command: what it removes follows from the state, so replay removes the same. */
  | { type: 'project.forgotten'; project: string }
  | { type: 'user.created'; user: User }
  | { type: 'user.deleted'; user: User }
  /** A user's new password hash (never their password); replaces the one before. */
  | { type: 'user.password-set'; userId: number; passwordHash: string }
  | { type: 'user.updated'; user: User; before: User }
  /** A one-time password link, under the keyed hash of its secret (never the secret). */
  | { type: 'user.password-link-created'; userId: number; hash: string; createdAt: string; expiresAt: string }
  /** Every password link of the user ends (used, replaced by a new password or a new link). */
  | { type: 'user.password-links-ended'; userId: number }
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
  | { type: 'strategy-definition.deleted'; definition: StrategyDefinition }
  /** An addon with its parameters (secrets included: the service log is never answered, dumps mask them). */
  | { type: 'addon.created'; addon: Addon }
  | { type: 'addon.updated'; addon: Addon; before: Addon }
  | { type: 'addon.deleted'; addon: Addon };
