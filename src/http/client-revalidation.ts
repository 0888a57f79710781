import * as v from 'valibot';
import { ClientFeaturesQuerySchema } from '../schemas/client.schema.js';
import { clientPoll, ifNoneMatches } from './client-spec.js';
import { clientCallerOf, shortcutObserver } from './node-shortcut-parts.js';
import { requestIdOf, type Observers } from './pipeline.js';
import type { AppDeps } from './route.js';
import type { NodeShortcut } from './server.js';

const PATH = '/api/client/features';

/**
 * The poll every backend SDK sends every few seconds, `GET /api/client/features` with the `ETag` it has in
 * `If-None-Match` and nothing new: answered 304 by Node before Hono (docs/architecture.md "Departures").
 *
 * It answers only what the route would answer the same way, from the same parts: the caller (`callerOf`, the
 * `CLIENT_API` permission), the cached answer and its `ETag` (`clientPoll`), the request id, the request log
 * line and the request metrics. Anything else goes on to the route unchanged: a query string, no
 * `If-None-Match` or a stale one, no or a bad token, a personal token, a bad `Unleash-Client-Spec`. The route's
 * Hono pipeline costs ~40 µs of CPU a request; Node alone ~18 µs (docs/benchmark.md).
 */
export function clientNotModified(deps: AppDeps, observers: Observers): NodeShortcut {
  const observe = shortcutObserver(observers, PATH);
  const query = v.parse(ClientFeaturesQuerySchema, {});
  return (req, res) => {
    if (req.url !== PATH || req.method !== 'GET') return false;
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch === undefined) return false;
    const start = performance.now();
    try {
      const caller = clientCallerOf(req, deps);
      if (caller === false || caller instanceof Promise) return caller;
      const spec = req.headers['unleash-client-spec'];
      const { answer, streaming } = clientPoll(deps, caller, typeof spec === 'string' ? spec : undefined, query);
      if (!ifNoneMatches(ifNoneMatch, answer.etag)) return false;
      const reqId = requestIdOf(req.headers['x-request-id']);
      res.writeHead(304, streaming ? { ETag: answer.etag, 'X-Request-Id': reqId, 'fetch-mode': 'streaming' } : { ETag: answer.etag, 'X-Request-Id': reqId });
      res.end();
      observe(reqId, 304, start);
      return true;
    } catch {
      // The route answers the error (401, 400) in its own shape.
      return false;
    }
  };
}
