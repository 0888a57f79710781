import { getQueryParams } from 'hono/utils/url';
import { queryAsContext, readContext } from '../schemas/frontend.schema.js';
import { frontendAnswer, frontendHeaders, namesEtag } from './frontend-answer.js';
import { clientCallerOf, shortcutObserver } from './node-shortcut-parts.js';
import { corsHeaders } from './middleware/cors.js';
import type { Observers } from './pipeline/observers.js';
import { requestIdOf } from './pipeline/request-id.js';
import type { AppDeps } from './route.js';
import type { NodeShortcut } from './server.js';

const PATH = '/api/frontend';

/**
 * `GET /api/frontend`, what every browser SDK asks every few seconds, answered by Node before Hono
 * (docs/architecture.md "Departures"): the route's Hono pipeline (the WHATWG Request, the step runner, the
 * Response node-server copies back) cost ~40 µs of a ~145 µs request with 100 flags.
 *
 * It answers only what the route would answer the same way, from the same parts: the caller (`callerOf`, the
 * `FRONTEND_API` permission), the query read as the route reads it (Hono's `getQueryParams`, then
 * `queryAsContext` and `readContext`), the body, `ETag` and 304 (`frontendAnswer`), the CORS headers
 * (`corsHeaders`), the request id, the request log line and the request metrics. Anything else goes on to the
 * route unchanged: no or a bad token, a token of another kind, a query the route refuses.
 */
export function frontendOnNode(deps: AppDeps, observers: Observers): NodeShortcut {
  const observe = shortcutObserver(observers, PATH);
  const cors = corsHeaders(deps.config.frontendCorsOrigins);
  return (req, res) => {
    const url = req.url!;
    if (req.method !== 'GET' || !url.startsWith(PATH) || (url.length !== PATH.length && url.charCodeAt(PATH.length) !== 63 /* ? */)) return false;
    const start = performance.now();
    try {
      const caller = clientCallerOf(req, deps, 'FRONTEND_API');
      if (caller === false || caller instanceof Promise) return caller;
      const query = queryAsContext(url.length === PATH.length ? {} : getQueryParams(url) as Record<string, string[]>);
      const read = query.ok ? readContext(query.input) : query;
      if (!read.ok) return false;
      const { body, etag } = frontendAnswer(deps, caller, read.context, req.socket.remoteAddress);
      const reqId = requestIdOf(req.headers['x-request-id']);
      const headers: Record<string, string | number> = { 'X-Request-Id': reqId };
      for (const [name, value] of cors(req.headers.origin)) headers[name] = value;
      Object.assign(headers, frontendHeaders(etag));
      if (namesEtag(req.headers['if-none-match'], etag)) {
        res.writeHead(304, headers);
        res.end();
        observe(reqId, 304, start);
      } else {
        headers['content-type'] = 'application/json';
        headers['Content-Length'] = body.length;
        res.writeHead(200, headers);
        res.end(body);
        observe(reqId, 200, start);
      }
      return true;
    } catch {
      // The route answers the error (401) in its own shape.
      return false;
    }
  };
}
