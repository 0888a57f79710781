import type { MiddlewareHandler } from 'hono';
import type { Principal } from '../../auth/permissions.js';
import { hashSecret, sameHash, tokenFromHeader } from '../../auth/tokens.js';
import type { ServiceState } from '../../domain/service-state.js';
import { apiError } from '../errors.js';
import type { AppDeps, AppEnv, RouteSpec } from '../route.js';

/**
 * Resolves the caller from the `Authorization` header: a stored token whose hash matches (compared in
 * constant time), not expired, and for a personal token, a user that still exists. Anything else is a 401.
 * With `AUTH_TYPE=none` every request acts as an admin.
 */
export function principalOf(header: string | undefined, service: ServiceState, authType: 'api-token' | 'none', now = Date.now()): Principal {
  if (authType === 'none') return { kind: 'admin', name: 'auth-none' };
  const secret = tokenFromHeader(header);
  if (secret === null) throw apiError('AuthenticationRequired', 'You must log in or send an API token in the Authorization header to use this API');
  const hash = hashSecret(secret);
  const token = service.tokens[hash];
  if (!token || !sameHash(token.hash, hash) || (token.expiresAt !== null && Date.parse(token.expiresAt) <= now)) {
    throw apiError('AuthenticationRequired', 'The API token in the Authorization header is unknown, revoked or expired');
  }
  if (token.type === 'admin') return { kind: 'admin', name: token.tokenName };
  if (token.type === 'client') return { kind: 'client', name: token.tokenName, projects: token.projects, environment: token.environment };
  const user = token.userId === null ? undefined : service.users[String(token.userId)];
  if (!user) throw apiError('AuthenticationRequired', 'The user of this personal token no longer exists');
  return { kind: 'user', user, tokenName: token.tokenName };
}

/** Step 1 of every route: note the route for the request log, then who is calling (401). */
export function authenticate(route: RouteSpec, deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('route', route.path);
    c.set('principal', principalOf(c.req.header('authorization'), deps.registry.service.state, deps.config.authType));
    await next();
  };
}
