import type { Context } from 'hono';
import { requestLineWriter } from '../../log.js';
import { flushNotedHeaders } from '../answers/answer.js';
import type { AppEnv } from '../route.js';
import { errorAnswer } from './error-answer.js';
import type { ErrorHook } from './error-hook.js';
import type { Observers } from './observers.js';
import { takeRequestId } from './request-id.js';

/**
 * What every answer goes through, route or not: a request id (the caller's well-formed `X-Request-Id`, or a
 * new UUID: on the response and as the `id` of an error body), the error answer of anything thrown (`onError`
 * first, then {@link errorAnswer}), and, once it is answered, one request log line (method, route template,
 * status, duration, request id) and one observation in the request metrics.
 *
 * It wraps each handler rather than sitting in front of them as `app.use` middleware: Hono calls a route
 * with one handler directly, without composing a chain.
 * Hand-kept for speed: docs/performance.md "One handler per route".
 *
 * @example app.get('/health', observed({ log }, '/health', (c) => c.json({ health: 'GOOD' })))
 */
export function observed(observers: Observers, route: string | null, handler: (c: Context<AppEnv>) => Response | Promise<Response>, onError?: ErrorHook) {
  const { log, metrics } = observers;
  const line = requestLineWriter(log, route);
  return async (c: Context<AppEnv>): Promise<Response> => {
    const start = performance.now();
    const reqId = takeRequestId(c);
    let answer: Response;
    try {
      answer = await handler(c);
    } catch (error) {
      answer = onError?.(c, error) ?? errorAnswer(c, error, observers, route);
    }
    flushNotedHeaders(c);
    const ms = performance.now() - start;
    metrics?.observeRequest(route, c.req.method, answer.status, ms / 1000);
    line(reqId, c.req.method, answer.status, ms);
    return answer;
  };
}
