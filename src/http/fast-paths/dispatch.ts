import { isAllowed, type Permission } from '../../auth/permissions.js';
import { requestLineWriter } from '../../log.js';
import { callerOf } from '../middleware/authenticate.js';
import { requestIdOf } from '../pipeline/request-id.js';
import type { AppDeps, NodeAnswer, RouteSpec } from '../route.js';
import type { FastPaths } from '../server.js';

/** A route's fast path with what the dispatch needs of its record. */
interface FastPath {
  permission: Permission;
  answer: NodeAnswer;
  /** Notes an answer as `observed` notes the route's: the request log line and the request metric. */
  observe(requestId: string, method: string, status: number, start: number): void;
}

/**
 * The fast paths of `routes` (their `node` answers, docs/performance.md) as the one function `serveApp` runs
 * before Hono; undefined when no route has one. For a request of a route's method and exact path it does what
 * the route's first steps do, once for every fast path: the caller from `Authorization` (`callerOf`), held to
 * the route's permission, and the request id; then the route's `node` answer writes the answer, and it is
 * noted like the route's (log line, metric). Anything else goes to Hono untouched: another path, no or a bad
 * token, a caller without the permission, an answer that declines, an error of any kind (the route answers
 * it in its one shape). A token from before keyed hashes is re-stored first, then its request goes to Hono.
 *
 * @example const fastPaths = fastPathsOf(ROUTES, deps) // served by serveApp({ fetch, fastPaths }, ...)
 */
export function fastPathsOf(routes: readonly RouteSpec[], deps: AppDeps): FastPaths | undefined {
  const byKey = new Map<string, FastPath>();
  for (const route of routes) {
    if (!route.node) continue;
    const line = requestLineWriter(deps.log, route.path);
    byKey.set(`${route.method.toUpperCase()} ${route.path}`, {
      permission: route.permission,
      answer: route.node,
      observe: (requestId, method, status, start) => {
        const ms = performance.now() - start;
        deps.metrics.observeRequest(route.path, method, status, ms / 1000);
        line(requestId, method, status, ms);
      },
    });
  }
  if (byKey.size === 0) return undefined;
  return (req, res) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const fastPath = byKey.get(`${req.method} ${query < 0 ? url : url.slice(0, query)}`);
    if (fastPath === undefined) return false;
    const start = performance.now();
    try {
      const caller = callerOf(req.headers.authorization, deps);
      if (caller instanceof Promise) return caller.then(() => false, () => false);
      if (!isAllowed(caller, fastPath.permission, undefined)) return false;
      const requestId = requestIdOf(req.headers['x-request-id']);
      const status = fastPath.answer({ req, res, hasQuery: query >= 0, principal: caller, requestId, deps });
      if (status === false) return false;
      fastPath.observe(requestId, req.method!, status, start);
      return true;
    } catch {
      // `callerOf`'s 401, or a 400 of the answer's readers: the route answers it in its own shape.
      return false;
    }
  };
}
