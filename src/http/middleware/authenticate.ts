import type { Principal } from '../../auth/permissions.js';
import { tokenFromHeader } from '../../auth/tokens.js';
import { tokenForSecret } from '../../use-cases/tokens.use-cases.js';
import { apiError } from '../errors.js';
import { ticketScopeMatches } from '../ofrep-scope.js';
import type { AppDeps, RouteSpec, Step } from '../route.js';
import { principalOf } from './principal-of.js';
import { sessionCallerOf } from './session-caller.js';

/**
 * The caller of a request from its `Authorization` header; with `AUTH_TYPE=none` every request acts as an
 * admin. Synchronous for a token stored under its keyed hash (every request but the first of a token from
 * before keyed hashes, which is re-stored: a write).
 */
export function callerOf(header: string | undefined, deps: AppDeps): Principal | Promise<Principal> {
  if (deps.config.authType === 'none') return { kind: 'admin', name: 'auth-none' };
  const secret = tokenFromHeader(header);
  if (secret === null) throw apiError('AuthenticationRequired', 'You must log in or send an API token in the Authorization header to use this API');
  const token = tokenForSecret(deps.registry, deps.tokenHasher, secret);
  if (token instanceof Promise) return token.then((found) => principalOf(found, deps.registry.service.state));
  return principalOf(token, deps.registry.service.state);
}

/**
 * The caller a stream ticket stands for (`authentication: 'ticket'` routes): a valid, unexpired ticket of this
 * installation naming a token that still exists, still valid, with the scope the ticket was issued for. The
 * 401 names what is wrong, never the ticket.
 */
function ticketCallerOf(ticket: string | undefined, deps: AppDeps): Principal {
  if (deps.config.authType === 'none') return { kind: 'admin', name: 'auth-none' };
  const claims = deps.streamTickets.verify(ticket);
  const again = 'fetch POST /ofrep/v1/evaluate/flags again for a fresh eventStreams URL';
  if (claims === 'malformed') throw apiError('AuthenticationRequired', `The event stream needs the ticket of its eventStreams URL (?ticket=); this one is missing or malformed: ${again}`);
  if (claims === 'forged') throw apiError('AuthenticationRequired', `The stream ticket was not issued by this server: ${again}`);
  if (claims === 'expired') throw apiError('AuthenticationRequired', `The stream ticket has expired: ${again}`);
  const token = claims.token === null ? undefined : Object.values(deps.registry.service.state.tokens).find((t) => t.id === claims.token);
  if (!token || (token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now())) {
    throw apiError('AuthenticationRequired', `The API token this stream ticket was issued to is unknown, revoked or expired: ${again} with a valid token`);
  }
  const principal = principalOf(token, deps.registry.service.state);
  if (!ticketScopeMatches(principal, claims.scope)) throw apiError('AuthenticationRequired', `The stream ticket was issued for another scope than its token's: ${again}`);
  return principal;
}

/** Step 1 of every route: who is calling (401), from the `Authorization` header, a ticket route's ticket, or a page's session. */
export function authenticate(route: RouteSpec, deps: AppDeps): Step {
  return (c) => {
    if (route.authentication === 'session') {
      const caller = sessionCallerOf(c, deps);
      if (!(caller instanceof Promise)) {
        c.set('principal', caller);
        return;
      }
      return caller.then((principal) => c.set('principal', principal));
    }
    if (route.authentication === 'ticket') {
      c.set('principal', ticketCallerOf(c.req.query('ticket'), deps));
      return;
    }
    const caller = callerOf(c.req.header('authorization'), deps);
    if (!(caller instanceof Promise)) {
      c.set('principal', caller);
      return;
    }
    return caller.then((principal) => c.set('principal', principal));
  };
}
