/** The commands of the service actor, and what each answers when accepted (`ServiceReplies`). */
import type { ContextField, LegalValue, StrategyDefinition, TagType } from './definitions.js';
import type { Segment, SegmentInput } from './segment.js';
import type { Addon, AddonInput } from './addons/addon.js';
import type { Environment, ServiceState, StoredToken, User } from './service-state.js';

/** An environment as created: `sortOrder` absent means after every existing one (decided in the mailbox). */
export type NewEnvironment = Omit<Environment, 'sortOrder'> & { sortOrder?: number | undefined };

/** A command to the service actor: environments, users, tokens, segments, tag types, context fields, strategy definitions. */
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
  /** `passwordHash`: the encoded hash of the user's first password (`src/auth/passwords.ts`), if any. */
  | { type: 'user.create'; user: Omit<User, 'id' | 'createdAt'>; passwordHash?: string | undefined }
  /** Sets (or replaces) a user's password hash; the sessions of the old one end (`sessions.use-cases.ts`). */
  | { type: 'user.password.set'; userId: number; passwordHash: string }
  | { type: 'user.delete'; userId: number }
  /** Changes a user's name, email and/or root role (Unleash's `PUT /api/admin/user-admin/:id`); the last root Admin stays one. */
  | { type: 'user.update'; userId: number; name?: string | null | undefined; email?: string | null | undefined; rootRole?: number | undefined }
  /** A one-time link to set the user's password, stored under `hash`; it replaces any link the user had. */
  | { type: 'user.password-link.create'; userId: number; hash: string; expiresAt: string }
  /** Sets the password of the link stored under `hash`, if it is unexpired, and ends the link. */
  | { type: 'user.password-link.use'; hash: string; passwordHash: string }
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
  | { type: 'strategy-definition.delete'; name: string }
  /** Creates an addon (and the tag types its provider uses, when missing and within the limit). */
  | { type: 'addon.create'; addon: AddonInput }
  /** Replaces an addon; a sensitive parameter sent as `*****` keeps its stored value (decided here, against it). */
  | { type: 'addon.update'; id: number; addon: AddonInput }
  /** Deletes an addon; an unknown id changes nothing (null), as in Unleash. */
  | { type: 'addon.delete'; id: number };

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
  'user.password.set': User;
  'user.update': User;
  'user.password-link.create': User;
  'user.password-link.use': User;
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
  'addon.create': Addon;
  'addon.update': Addon;
  'addon.delete': Addon | null;
}
