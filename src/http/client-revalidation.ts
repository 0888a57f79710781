import * as v from 'valibot';
import { ClientFeaturesQuerySchema } from '../schemas/client.schema.js';
import { clientPoll, ifNoneMatches } from './client-spec.js';
import { clientCallerOf, shortcutObserver } from './node-shortcut-parts.js';
import { jsonAnswer } from './gzip.js';
import type { Observers } from './pipeline/observers.js';
import { requestIdOf } from './pipeline/request-id.js';
import type { AppDeps } from './route.js';
import type { NodeShortcut } from './server.js';

const PATH = '/api/client/features';

/**
 * The poll every backend SDK sends every few seconds, `GET /api/client/features` with no query: answered by Node
 * before Hono (docs/architecture.md "Departures"), 304 when its `If-None-Match` names the current `ETag`, else the
 * cached answer in full.
 *
 * It answers only what the route would answer the same way, from the same parts: the caller (`callerOf`, the
 * `CLIENT_API` permission), the cached answer and its `ETag` (`clientPoll`), its bytes and headers (`jsonAnswer`,
 * gzipped as the route gzips), the request id, the request log line and the request metrics. Anything else goes
 * on to the route unchanged: a query string, no or a bad token, a personal token, a bad `Unleash-Client-Spec`.
 * The route's Hono pipeline costs ~40 µs of CPU a request; Node alone ~18 µs (docs/benchmark.md).
 */
export function clientPollOnNode(deps: AppDeps, observers: Observers): NodeShortcut {
  const observe = shortcutObserver(observers, PATH);
  const query = v.parse(ClientFeaturesQuerySchema, {});
  return (req, res) => {
    if (req.url !== PATH || req.method !== 'GET') return false;
    const start = performance.now();
    try {
      const caller = clientCallerOf(req, deps);
      if (caller === false || caller instanceof Promise) return caller;
      const spec = req.headers['unleash-client-spec'];
      const { answer, streaming } = clientPoll(deps, caller, typeof spec === 'string' ? spec : undefined, query);
      const headers: Record<string, string | number> = { 'X-Request-Id': requestIdOf(req.headers['x-request-id']), ETag: answer.etag };
      if (streaming) headers['fetch-mode'] = 'streaming';
      if (ifNoneMatches(req.headers['if-none-match'], answer.etag)) {
        res.writeHead(304, headers);
        res.end();
        observe(headers['X-Request-Id'] as string, 304, start);
        return true;
      }
      const { bytes, headers: encoding } = jsonAnswer(answer.body, req.headers['accept-encoding'], deps.gzip);
      Object.assign(headers, encoding);
      headers['Content-Length'] = bytes.byteLength;
      res.writeHead(200, headers);
      res.end(bytes);
      observe(headers['X-Request-Id'] as string, 200, start);
      return true;
    } catch {
      // The route answers the error (401, 400) in its own shape.
      return false;
    }
  };
}
