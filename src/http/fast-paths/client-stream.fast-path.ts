import { parseRevision } from '../../queries/sdk/client-delta.query.js';
import { clientScopeOf } from '../client-spec.js';
import type { NodeCall } from '../route.js';

/**
 * The fast path of `GET /api/client/streaming`: the stream opened on Node's response, each message one
 * `res.write`, instead of the route's WHATWG `ReadableStream`. It opens what the route would open the same
 * way, with its headers; a query string, streaming off, no room for one more stream or a server stopping are
 * left to the route (404, 429, 503 in their one shape).
 * Hand-kept for speed: docs/performance.md "SDK stream fast path".
 */
export function clientStreamOnNode({ req, res, hasQuery, principal, requestId, deps }: NodeCall): number | false {
  if (hasQuery || !deps.config.clientStreaming) return false;
  const lastEventId = req.headers['last-event-id'];
  const opened = deps.clientStreams.openOnNode(clientScopeOf(principal), {}, parseRevision(typeof lastEventId === 'string' ? lastEventId : undefined), res, {
    'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', 'X-Request-Id': requestId,
  });
  return opened === true ? 200 : false;
}
