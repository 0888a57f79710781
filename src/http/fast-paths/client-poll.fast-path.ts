import * as v from 'valibot';
import { ClientFeaturesQuerySchema } from '../../schemas/client.schema.js';
import { aheadOfNode, presentedRevision } from '../client-ahead.js';
import { clientPoll } from '../client-spec.js';
import { jsonAnswer } from '../answers/gzip.js';
import type { NodeCall } from '../route.js';
import { conditionalAnswer } from './conditional-answer.js';

/** The query of a poll without a query string, as the route's schema reads it. */
const NO_QUERY = v.parse(ClientFeaturesQuerySchema, {});

/**
 * The fast path of `GET /api/client/features`, the poll every backend SDK sends every few seconds: 304 when its
 * `If-None-Match` names the current `ETag`, else the cached answer in full, from the route's own parts
 * (`clientPoll`, `jsonAnswer` with the route's gzip). A poll with a query string, or a bad
 * `Unleash-Client-Spec` (thrown: the route's 400), is left to the route.
 * Hand-kept for speed: docs/performance.md "SDK poll fast path".
 */
export function clientPollOnNode({ req, res, hasQuery, principal, requestId, deps }: NodeCall): number | false {
  if (hasQuery) return false;
  // A client ahead of this node (several nodes): the route waits for the node to catch up.
  if (deps.registry.shared && aheadOfNode(deps, presentedRevision(req.headers['if-none-match']))) return false;
  const spec = req.headers['unleash-client-spec'];
  const { answer, streaming } = clientPoll(deps, principal, typeof spec === 'string' ? spec : undefined, NO_QUERY);
  const headers: Record<string, string | number> = { 'X-Request-Id': requestId, ETag: answer.etag };
  if (streaming) headers['fetch-mode'] = 'streaming';
  return conditionalAnswer({ req, res }, answer.etag, headers, () => jsonAnswer(answer.body, req.headers['accept-encoding'], deps.gzip));
}
