import type { MiddlewareHandler } from 'hono';
import { requestLine, type Logger } from '../../log.js';
import type { ServiceMetrics } from '../../queries/metrics.query.js';
import type { AppEnv } from '../route.js';

/**
 * One log line per request, after it is answered: method, route template (never the raw path with its
 * values, never a header), status, duration and the request id that is also the `id` of an error body.
 * The same finish hook counts the request in the metrics: one histogram `observe` with labels already known.
 */
export function requestLog(log: Logger, metrics?: ServiceMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const start = performance.now();
    await next();
    const elapsed = performance.now() - start;
    const route = c.get('route') ?? null;
    metrics?.observeRequest(route, c.req.method, c.res.status, elapsed / 1000);
    if (!log.isLevelEnabled('info')) return;
    const ms = Math.round(elapsed * 100) / 100;
    requestLine(log, { reqId: c.get('requestId'), method: c.req.method, route, status: c.res.status, ms });
  };
}
