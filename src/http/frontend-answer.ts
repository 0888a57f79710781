import type { Principal } from '../auth/permissions.js';
import { randomSessionId, type EvaluationScope } from '../queries/evaluation.query.js';
import type { RequestContext } from '../schemas/frontend.schema.js';
import { revisionedEtag } from './client-ahead.js';
import type { AppDeps } from './route.js';

/**
 * `/api/frontend`'s answer, shared by its routes (`routes/frontend.routes.ts`) and the GET's fast path
 * (`fast-paths/frontend.fast-path.ts`), so both answer the same bytes and headers.
 */

/** The scope of a caller of `/api/frontend`: a frontend token's, or for an admin, every project in the context's environment. */
export function frontendScope(principal: Principal, context: RequestContext): EvaluationScope {
  if (principal.kind === 'frontend') return { projects: principal.projects, environment: principal.environment };
  return { projects: '*', environment: context.environment ?? 'default' };
}

/**
 * Unleash's defaults: a random `sessionId` per request, `remoteAddress` from the connection; `currentTime` now (the
 * engine's). Filled into `context` itself: the caller read it for this request alone, so a copy would buy nothing.
 */
export function withDefaults(context: RequestContext, peer: string | undefined): RequestContext {
  context.sessionId ??= randomSessionId();
  if (context.remoteAddress === undefined && peer !== undefined) context.remoteAddress = peer;
  return context;
}

/**
 * The toggles enabled for `context` as the body's bytes, and its weak `ETag` naming the node's revision too
 * (`revisionedEtag`: a browser a load balancer moves to a node behind it is told "no change").
 */
export function frontendAnswer(deps: AppDeps, principal: Principal, context: RequestContext, peer: string | undefined): { body: Buffer; etag: string } {
  const { body, etag } = deps.evaluation.frontendAnswer(frontendScope(principal, context), withDefaults(context, peer));
  return { body, etag: revisionedEtag(etag, deps.registry.feed.revision) };
}

/**
 * The headers of a 200 or 304 of `/api/frontend`, beside the request id and CORS headers: a cache must ask again
 * each time (`no-cache`: the answer depends on the context).
 */
export const frontendHeaders = (etag: string): Record<string, string> => ({ ETag: etag, 'Cache-Control': 'no-cache' });
