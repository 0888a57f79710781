import { getQueryParams } from 'hono/utils/url';
import { queryAsContext, readContext } from '../../schemas/frontend.schema.js';
import { aheadOfNode, revisionedMatch } from '../client-ahead.js';
import { frontendAnswer, frontendHeaders } from '../frontend-answer.js';
import { corsHeaders } from '../middleware/cors.js';
import type { NodeCall } from '../route.js';
import { conditionalAnswer } from './conditional-answer.js';

const JSON_TYPE: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/**
 * The fast path of `GET /api/frontend`, what every browser SDK asks every few seconds: the toggles enabled for
 * the query's context, from the route's own parts (the query read by Hono's `getQueryParams`, `queryAsContext`
 * and `readContext`; `frontendAnswer`; the CORS headers of `corsHeaders`), 304 when `If-None-Match` names the
 * `ETag`. A query the route refuses is left to it (its 400).
 * Hand-kept for speed: docs/performance.md "Frontend fast path".
 */
export function frontendOnNode({ req, res, hasQuery, principal, requestId, deps }: NodeCall): number | false {
  const query = queryAsContext(hasQuery ? getQueryParams(req.url!) as Record<string, string[]> : {});
  const read = query.ok ? readContext(query.input) : query;
  if (!read.ok) return false;
  const { body, etag } = frontendAnswer(deps, principal, read.context, req.socket.remoteAddress);
  const seen = revisionedMatch(req.headers['if-none-match'], etag);
  // A browser ahead of this node (several nodes): the route waits for the node to catch up.
  if (seen !== 'match' && aheadOfNode(deps, seen)) return false;
  const headers: Record<string, string | number> = { 'X-Request-Id': requestId };
  for (const [name, value] of corsHeaders(deps.config.frontendCorsOrigins)(req.headers.origin)) headers[name] = value;
  Object.assign(headers, frontendHeaders(etag));
  return conditionalAnswer({ req, res }, etag, headers, () => ({ bytes: body, headers: JSON_TYPE }), seen === 'match');
}
