/**
 * Past facts of the service (environments, users, tokens), for `givenService` and `then` (see `decider.ts`).
 */
import { ROOT_ADMIN, ROOT_VIEWER } from '../../src/domain/roles.js';
import type { Environment, StoredToken, User } from '../../src/domain/service-state.js';
import type { ServiceEvent } from '../../src/domain/service-events.js';
import { AT } from './project-events.js';

/** An environment as stored: enabled, not protected, of type `development` unless named `production`. */
export const environment = (name: string, sortOrder: number): Environment =>
  ({ name, type: name === 'production' ? 'production' : 'development', sortOrder, enabled: true, protected: false });

export const environmentCreated = (name: string, sortOrder: number): ServiceEvent =>
  ({ type: 'environment.created', environment: environment(name, sortOrder) });

/** A user with root role `rootRole` (Viewer unless given), named after its id. */
export const user = (id: number, rootRole = ROOT_VIEWER): User =>
  ({ id, name: `user-${id}`, email: null, username: `user-${id}`, rootRole, createdAt: AT });

/** A root Admin. */
export const admin = (id: number): User => user(id, ROOT_ADMIN);

export const userCreated = (created: User): ServiceEvent => ({ type: 'user.created', user: created });

/** A token as stored: scoped to every project and environment, never expiring, unless `fields` say otherwise. */
export const token = (hash: string, fields: Partial<StoredToken> = {}): StoredToken => ({
  id: `id-${hash}`, hash, tokenName: `token-${hash}`, type: 'client', projects: ['*'], environment: '*',
  createdAt: AT, expiresAt: null, userId: null, prefix: hash.slice(0, 6), ...fields,
});

export const tokenCreated = (created: StoredToken): ServiceEvent => ({ type: 'token.created', token: created });
