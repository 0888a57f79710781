import type { MiddlewareHandler } from 'hono';
import { requestLine, type Logger } from '../../log.js';
import type { AppEnv } from '../route.js';

/**
 * One log line per request, after it is answered: method, route template (never the raw path with its
 * values, never a header), status, duration and the request id that is also the `id` of an error body.
 */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const start = performance.now();
    await next();
    if (!log.isLevelEnabled('info')) return;
    const ms = Math.round((performance.now() - start) * 100) / 100;
    requestLine(log, { reqId: c.get('requestId'), method: c.req.method, route: c.get('route') ?? null, status: c.res.status, ms });
  };
}
