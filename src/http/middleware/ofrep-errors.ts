import type { Context } from 'hono';
import { ApiError, STATUS } from '../errors.js';

/** The OFREP error codes flagpole answers (OpenFeature's `ErrorCode`). */
export type OfrepErrorCode = 'PARSE_ERROR' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'GENERAL';

/** Where a handler notes the OFREP code of the 400 it is about to throw (default `PARSE_ERROR`). */
export const OFREP_ERROR_CODE = 'ofrepErrorCode';

/**
 * The OFREP routes answer their 400s and 404s as the protocol's providers read them: `{key, errorCode,
 * errorDetails}` on the single evaluation (the key from the path), `{errorCode, errorDetails}` on the bulk one.
 * A body that is not JSON or not an object is `PARSE_ERROR`, a context the handler refuses `INVALID_CONTEXT`,
 * an unknown flag `FLAG_NOT_FOUND`. 401, 403, 413, 415 and 429 keep the standard body (OFREP defines none for them).
 */
export function ofrepErrorAnswer(c: Context, error: unknown): Response | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const status = STATUS[error.error.kind];
  if (status !== 400 && status !== 404) return undefined;
  const noted = c.get(OFREP_ERROR_CODE as never) as OfrepErrorCode | undefined;
  const errorCode: OfrepErrorCode = status === 404 ? 'FLAG_NOT_FOUND' : (noted ?? 'PARSE_ERROR');
  const key = c.req.param('key');
  return c.json({ ...(key === undefined ? {} : { key }), errorCode, errorDetails: error.error.message }, status);
}
