import type { Principal } from '../../auth/permissions.js';
import { tokenFromHeader } from '../../auth/tokens.js';
import type { ServiceState, StoredToken } from '../../domain/service-state.js';
import { tokenForSecret } from '../../use-cases/tokens.use-cases.js';
import { apiError } from '../errors.js';
import type { Step } from '../pipeline.js';
import type { AppDeps, RouteSpec } from '../route.js';

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

/**
 * The caller of a request from its `Authorization` header; with `AUTH_TYPE=none` every request acts as an
 * admin. Synchronous for a token stored under its keyed hash (every request but the first of a token from
 * before keyed hashes, which is re-stored: a write).
 */
function callerOf(header: string | undefined, deps: AppDeps): Principal | Promise<Principal> {
  if (deps.config.authType === 'none') return { kind: 'admin', name: 'auth-none' };
  const secret = tokenFromHeader(header);
  if (secret === null) throw apiError('AuthenticationRequired', 'You must log in or send an API token in the Authorization header to use this API');
  const token = tokenForSecret(deps.registry, deps.tokenHasher, secret);
  if (token instanceof Promise) return token.then((found) => principalOf(found, deps.registry.service.state));
  return principalOf(token, deps.registry.service.state);
}

/** Step 1 of every route: who is calling (401). */
export function authenticate(_route: RouteSpec, deps: AppDeps): Step {
  return (c) => {
    const caller = callerOf(c.req.header('authorization'), deps);
    if (!(caller instanceof Promise)) {
      c.set('principal', caller);
      return;
    }
    return caller.then((principal) => c.set('principal', principal));
  };
}
