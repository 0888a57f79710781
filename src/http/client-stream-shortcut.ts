import { parseRevision } from '../queries/client-delta.query.js';
import { clientScopeOf } from './client-spec.js';
import { clientCallerOf, shortcutObserver } from './node-shortcut-parts.js';
import type { Observers } from './pipeline/observers.js';
import { requestIdOf } from './pipeline/request-id.js';
import type { AppDeps } from './route.js';
import type { NodeShortcut } from './server.js';

const PATH = '/api/client/streaming';

/**
 * `GET /api/client/streaming` opened on Node's response, before Hono (docs/architecture.md "Departures"): the
 * route's stream is a WHATWG `ReadableStream` that node-server pumps into the socket, a few promises per
 * message per client; at 5,000 clients that was most of a fan-out. Here each message is one `write` to the
 * socket (`ClientStreams.openOnNode`).
 *
 * It opens only what the route would open the same way: a caller `callerOf` accepts with the `CLIENT_API`
 * permission, streaming on, room for one more stream; the same headers, request id, request log line and
 * metric as the route's answer. Anything else (a query string, no or a bad token, streaming off, the limit
 * reached, the server stopping) goes on to the route, which answers it in its own shape.
 */
export function clientStreamOnNode(deps: AppDeps, observers: Observers): NodeShortcut {
  const observe = shortcutObserver(observers, PATH);
  return (req, res) => {
    if (req.url !== PATH || req.method !== 'GET' || !deps.config.clientStreaming) return false;
    const start = performance.now();
    try {
      const caller = clientCallerOf(req, deps);
      if (caller === false || caller instanceof Promise) return caller;
      const lastEventId = req.headers['last-event-id'];
      const reqId = requestIdOf(req.headers['x-request-id']);
      const opened = deps.clientStreams.openOnNode(clientScopeOf(caller), {}, parseRevision(typeof lastEventId === 'string' ? lastEventId : undefined), res, {
        'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', 'X-Request-Id': reqId,
      });
      if (opened !== true) return false;
      observe(reqId, 200, start);
      return true;
    } catch {
      // The route answers the error (401) in its own shape.
      return false;
    }
  };
}
