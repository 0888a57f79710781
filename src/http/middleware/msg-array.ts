import type { MiddlewareHandler } from 'hono';
import { ApiError, STATUS } from '../errors.js';

/**
 * The project-user routes answer every 400 as `[{msg}]` (seed 4.17 to 4.19): once the rest of the pipeline
 * has answered, a 400 error is re-answered in that shape. Other errors keep the standard body.
 */
export function msgArrayErrors(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const error = c.error;
    if (error instanceof ApiError && STATUS[error.error.kind] === 400) c.res = c.json([{ msg: error.error.message }], 400);
  };
}
