import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DomainError, ErrorDetail, ErrorKind } from '../domain/errors.js';
import type { Logger } from '../log.js';

export type { ErrorKind };

/** The one place an error kind becomes an HTTP status. */
export const STATUS: Record<ErrorKind, ContentfulStatusCode> = {
  ValidationError: 400,
  ExceedsLimitError: 400,
  ArchivedFeatureError: 400,
  MembershipError: 400,
  AuthenticationRequired: 401,
  NoAccessError: 403,
  PermissionError: 403,
  NotFoundError: 404,
  NameExistsError: 409,
  InvalidOperationError: 409,
  PatchTestFailed: 409,
  PreconditionFailed: 412,
  PayloadTooLarge: 413,
  ContentTypeError: 415,
  TooManyRequests: 429,
  Unavailable: 503,
  StorageUnavailable: 503,
};

/** A failure on its way to the client; thrown from handlers and middleware, answered by {@link errorResponse}. */
export class ApiError extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
    this.name = error.kind;
  }
}

/** Throws the domain error as an HTTP error. @example throw apiError('NotFoundError', 'no such flag') */
export const apiError = (kind: ErrorKind, message: string, details?: ErrorDetail[]) =>
  new ApiError(details ? { kind, message, details } : { kind, message });

/** The request id (`observed`, src/http/pipeline/observed.ts), the `id` of every error body and of the request's log line. */
const requestIdOf = (c: Context): string => (c.get('requestId') as string | undefined) ?? randomUUID();

/**
 * The error body of docs/api-decisions.md "Errors": `{id, name, message, details?: [{message}]}` with the request id as `id`; the
 * project-user 400s are `[{msg}]`.
 */
export function errorResponse(c: Context, error: DomainError): Response {
  const status = STATUS[error.kind];
  if (error.kind === 'MembershipError') return c.json([{ msg: error.message }], status);
  const body: Record<string, unknown> = { id: requestIdOf(c), name: error.kind, message: error.message };
  // Each detail's message only: the paths are for the console's forms.
  if (error.details && error.details.length > 0) body['details'] = error.details.map((detail) => ({ message: detail.message }));
  if (error.permissions) body['permissions'] = error.permissions;
  return c.json(body, status);
}

/** Unexpected failures: logged with their cause and the request id, answered without leaking the cause. */
export function internalErrorResponse(c: Context, cause: unknown, log: Logger, route: string | null): Response {
  const id = requestIdOf(c);
  log.error({ reqId: id, method: c.req.method, route, err: cause }, 'internal error');
  return c.json({ id, name: 'InternalError', message: 'The service failed to handle the request; it has been logged.' }, 500);
}
