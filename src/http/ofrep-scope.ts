/**
 * Whose flags an OFREP caller reads, and the stream tickets that stand for it
 * (docs/client-contract.md "OpenFeature (OFREP)").
 */
import type { Context } from 'hono';
import type { Principal } from '../auth/permissions.js';
import { scopeFingerprint } from '../auth/stream-tickets.js';
import { tokenFromHeader } from '../auth/tokens.js';
import type { EvaluationScope } from '../queries/sdk/evaluation.query.js';
import { tokenForSecret } from '../use-cases/tokens.use-cases.js';
import type { AppDeps, AppEnv } from './route.js';

/**
 * The scope an OFREP caller evaluates: a client or frontend token its projects in its environment; an admin
 * token (or `AUTH_TYPE=none`) every project in `default`, as the frontend API does for a context without one.
 */
export function ofrepScopeOf(principal: Principal): EvaluationScope {
  if (principal.kind === 'client' || principal.kind === 'frontend') {
    return { projects: principal.projects, environment: principal.environment === '*' ? 'default' : principal.environment };
  }
  return { projects: '*', environment: 'default' };
}

/** Whether a ticket issued for scope `fingerprint` stands for `principal` now. */
export function ticketScopeMatches(principal: Principal, fingerprint: string): boolean {
  const scope = ofrepScopeOf(principal);
  return scopeFingerprint(scope.projects, scope.environment) === fingerprint;
}

/**
 * The `eventStreams` of a bulk answer: one SSE URL with a ticket for the caller's token, on the origin of
 * `OFREP_PUBLIC_URL` or else of the request; none when streaming is off or the caller's token is not found.
 */
export async function eventStreamsOf(c: Context<AppEnv>, principal: Principal, deps: AppDeps): Promise<{ type: 'sse'; url: string }[] | undefined> {
  if (!deps.config.clientStreaming) return undefined;
  let token: string | null = null;
  if (deps.config.authType !== 'none') {
    const secret = tokenFromHeader(c.req.header('authorization'));
    const stored = secret === null ? undefined : await tokenForSecret(deps.registry, deps.tokenHasher, secret);
    if (!stored) return undefined;
    token = stored.id;
  }
  const scope = ofrepScopeOf(principal);
  const ticket = deps.streamTickets.issue({ token, scope: scopeFingerprint(scope.projects, scope.environment) });
  const origin = deps.config.ofrepPublicUrl ?? new URL(c.req.url).origin;
  return [{ type: 'sse', url: `${origin}/ofrep/v1/events?ticket=${ticket}` }];
}
