/** Service-wide data: environments, users, API tokens and segments (everything that is not inside one project). */
import type { Segment, SegmentInput } from './segment.js';

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

export type TokenType = 'admin' | 'client' | 'personal';

/** A stored token: only the SHA-256 of its secret is kept. */
export interface StoredToken {
  /**
   * Random, non-secret id used by listings and DELETE. Not derived from the hash: an unsalted hash of an
   * operator-chosen (possibly weak) init token would let anyone who sees a listing guess the secret offline.
   */
  id: string;
  /** Hex SHA-256 of the secret; also the token's identity in the store. */
  hash: string;
  tokenName: string;
  type: TokenType;
  projects: string[];
  environment: string;
  createdAt: string;
  expiresAt: string | null;
  /** For personal tokens: whose they are. */
  userId: number | null;
  /** A short, non-secret prefix shown in listings so a person can tell tokens apart. */
  prefix: string;
}

export interface ServiceState {
  environments: Environment[];
  users: Record<string, User>;
  nextUserId: number;
  tokens: Record<string, StoredToken>;
  /** By id (as string key). */
  segments: Record<string, Segment>;
  nextSegmentId: number;
}

/** An environment as created: `sortOrder` absent means after every existing one (decided in the mailbox). */
export type NewEnvironment = Omit<Environment, 'sortOrder'> & { sortOrder?: number | undefined };

export type ServiceCommand =
  | { type: 'service.init'; state: ServiceState }
  | { type: 'environment.create'; environment: NewEnvironment }
  | { type: 'user.create'; user: Omit<User, 'id' | 'createdAt'> }
  | { type: 'user.delete'; userId: number }
  | { type: 'token.create'; token: StoredToken }
  | { type: 'token.delete'; hash: string }
  | { type: 'segment.create'; segment: SegmentInput; createdBy: string | null }
  | { type: 'segment.update'; id: number; segment: SegmentInput }
  | { type: 'segment.delete'; id: number };

/** What each service command answers when accepted. */
export interface ServiceReplies {
  'service.init': null;
  'environment.create': Environment;
  'user.create': User;
  'user.delete': User;
  'token.create': StoredToken;
  'token.delete': StoredToken;
  'segment.create': Segment;
  'segment.update': Segment;
  'segment.delete': Segment;
}

export type ServiceEvent =
  | { type: 'service.initialized'; state: ServiceState }
  | { type: 'environment.created'; environment: Environment }
  | { type: 'user.created'; user: User }
  | { type: 'user.deleted'; user: User }
  | { type: 'token.created'; token: StoredToken }
  | { type: 'token.deleted'; token: StoredToken }
  | { type: 'segment.created'; segment: Segment }
  | { type: 'segment.updated'; segment: Segment; before: Segment }
  | { type: 'segment.deleted'; segment: Segment };

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
});

/** Applies one service event to a (forked) state. */
export function evolveService(draft: ServiceState, event: ServiceEvent): void {
  switch (event.type) {
    case 'service.initialized':
      Object.assign(draft, forkService(event.state));
      return;
    case 'environment.created':
      draft.environments.push(event.environment);
      draft.environments.sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
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
  }
}
