import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { StoreUnavailableError } from '../../../snapshots/store.js';
import { StorageError } from '../../actors/storage-error.js';
import { setResponseHeader } from '../answers/answer.js';
import { ApiError, errorResponse, internalErrorResponse, STATUS } from '../errors.js';
import { ofrepErrorAnswer } from '../middleware/ofrep-errors.js';
import type { ErrorHook } from './error-hook.js';
import type { AppEnv, RouteSpec } from '../route.js';
import type { Observers } from './observers.js';


/**
 * The error hook of a route whose record asks for another error body (`errorBody`): the project-user routes
 * answer every 400 as `[{msg}]` (docs/api-decisions.md "Requests and errors"), the OFREP routes their 400s and
 * 404s in OFREP's shape; undefined for every other route, whose errors keep the standard body.
 */
export function errorHookOf(route: RouteSpec): ErrorHook | undefined {
  if (route.errorBody === 'msg-array') {
    return (c, error) => (error instanceof ApiError && STATUS[error.error.kind] === 400 ? c.json([{ msg: error.error.message }], 400) : undefined);
  }
  return route.errorBody === 'ofrep' ? ofrepErrorAnswer : undefined;
}

/**
 * The answer to an error thrown by a step or a handler: an `ApiError` its status and standard body, a refused
 * write 503, anything unexpected a 500 that logs its cause with the request id and leaks nothing.
 */
export function errorAnswer(c: Context<AppEnv>, error: unknown, observers: Observers, route: string | null): Response {
  if (error instanceof ApiError) return errorResponse(c, error.error);
  if (error instanceof StorageError) return storageErrorResponse(c, error, observers, route);
  if (error instanceof StoreUnavailableError) return storeReadErrorResponse(c, error, observers, route);
  // A Hono middleware's own 4xx (none is expected: the steps answer their errors first) keeps its status class.
  if (error instanceof HTTPException && error.status < 500) return errorResponse(c, { kind: 'ValidationError', message: error.message.slice(0, 200) });
  return internalErrorResponse(c, error, observers.log, route);
}

/**
 * A write the store (the disk, the database) refused or did not confirm in time: 503 `StorageUnavailable` with
 * `Retry-After`, the cause (which may name files) in the log only. Nothing of a `failed` or `stalled` write is
 * recorded; a `timeout` one may land later, and then it is in the state as in the store.
 */
function storageErrorResponse(c: Context<AppEnv>, error: StorageError, { log, metrics }: Observers, route: string | null): Response {
  metrics?.storageError(error.reason);
  log.warn({ reqId: c.get('requestId'), route, reason: error.reason, err: error.cause }, 'write refused: storage unavailable');
  setResponseHeader(c, 'Retry-After', '5');
  return errorResponse(c, { kind: 'StorageUnavailable', message: `Storage unavailable: ${error.message}. Reads still work; writes resume once ${error.writesTo} takes them again.` });
}

/**
 * A read of the store (history, a past view) that the store could not answer (the database is unreachable):
 * 503 `StorageUnavailable` with `Retry-After`; the store's message (scrubbed of credentials) in the log only.
 */
function storeReadErrorResponse(c: Context<AppEnv>, error: StoreUnavailableError, { log }: Observers, route: string | null): Response {
  log.warn({ reqId: c.get('requestId'), route, err: { message: error.message, code: error.code } }, 'read refused: storage unavailable');
  setResponseHeader(c, 'Retry-After', '5');
  return errorResponse(c, { kind: 'StorageUnavailable', message: 'Storage unavailable: the stored history could not be read. What is in memory is still served; try again once the store is back.' });
}
