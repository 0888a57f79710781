import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { setResponseHeader, type NodeBindings } from '../answers/answer.js';
import type { AppEnv } from '../route.js';

/** A request id: the rules of `hono/request-id` (255 characters at most of `[A-Za-z0-9_=-]`, else a new UUID). */
const REQUEST_ID = /^[\w\-=]{1,255}$/;

/**
 * The request's id, noted on the context (`c.get('requestId')`) and set as `X-Request-Id` on the answer.
 *
 * This is `hono/request-id`'s contract without it: the header is noted (`setResponseHeader`), not set through
 * `c.header`. Hand-kept for speed: docs/performance.md "Noted response headers".
 */
export function takeRequestId(c: Context<AppEnv>): string {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  const id = requestIdOf(incoming ? incoming.headers['x-request-id'] : c.req.header('x-request-id'));
  c.set('requestId', id);
  setResponseHeader(c, 'X-Request-Id', id);
  return id;
}

/**
 * The id of a request: the caller's `X-Request-Id` when well-formed, else a new UUID.
 *
 * @example requestIdOf('abc-123') // 'abc-123'; requestIdOf('a b') // a new UUID
 */
export function requestIdOf(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}
