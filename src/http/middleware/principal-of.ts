import type { Principal } from '../../auth/permissions.js';
import type { ServiceState, StoredToken } from '../../domain/service-state.js';
import { apiError } from '../errors.js';

/**
 * Who a stored token (found by its keyed hash, `tokenForSecret`) stands for: not expired, and for a personal
 * token, a user that still exists. Anything else, and no token, is a 401.
 */
export function principalOf(token: StoredToken | undefined, service: ServiceState, now = Date.now()): Principal {
  if (!token || (token.expiresAt !== null && Date.parse(token.expiresAt) <= now)) {
    throw apiError('AuthenticationRequired', 'The API token in the Authorization header is unknown, revoked or expired');
  }
  if (token.type === 'admin') return { kind: 'admin', name: token.tokenName };
  if (token.type === 'client') return { kind: 'client', name: token.tokenName, projects: token.projects, environment: token.environment };
  if (token.type === 'frontend') return { kind: 'frontend', name: token.tokenName, projects: token.projects, environment: token.environment };
  const user = token.userId === null ? undefined : service.users[String(token.userId)];
  if (!user) throw apiError('AuthenticationRequired', 'The user of this personal token no longer exists');
  return { kind: 'user', user, tokenName: token.tokenName };
}
