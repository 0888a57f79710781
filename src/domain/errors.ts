/**
 * The closed vocabulary of failures (docs/api-decisions.md "Errors"). The domain returns these as values; the HTTP
 * layer maps each kind to its status in one place (src/http/errors.ts).
 */
export type ErrorKind =
  | 'ValidationError'
  /** A write that would pass one of the limits of docs/limits.md (Unleash's name and status). */
  | 'ExceedsLimitError'
  | 'ArchivedFeatureError'
  | 'AuthenticationRequired'
  | 'NoAccessError'
  /**
   * A caller without a permission a rule of the state asks for (Unleash's name and body, with `permissions`):
   * a direct write to an environment whose changes go through change requests needs `SKIP_CHANGE_REQUEST`.
   */
  | 'PermissionError'
  | 'NotFoundError'
  | 'NameExistsError'
  | 'InvalidOperationError'
  | 'PatchTestFailed'
  | 'PreconditionFailed'
  | 'PayloadTooLarge'
  | 'ContentTypeError'
  /** Too many of an expensive request at once (whole-state dumps): try again later (`Retry-After`). */
  | 'TooManyRequests'
  /** A project whose stored log could not be recovered: it answers 503 until an operator repairs it. */
  | 'Unavailable'
  /** The disk refused or did not confirm a write (full, failing, stuck): nothing unconfirmed was acknowledged; reads still work. */
  | 'StorageUnavailable'
  /** The project-user endpoints' 400, answered as `[{msg}]` (docs/admin-contract.md §4.17 to §4.19). */
  | 'MembershipError';

export interface DomainError {
  kind: ErrorKind;
  message: string;
  details?: { message: string }[];
  /** `PermissionError`: the permissions the caller lacks (the body lists them, as Unleash's does). */
  permissions?: string[];
}

/** Builds a {@link DomainError}. @example fail('NotFoundError', 'no flag "a"') */
export const fail = (kind: ErrorKind, message: string, details?: { message: string }[]): DomainError =>
  details ? { kind, message, details } : { kind, message };

/** What deciding a command gives: the events to record and the reply, or an expected failure. */
export type Decision<E, R> = { ok: true; events: E[]; reply: R } | { ok: false; error: DomainError };

/** An accepted decision. */
export const accept = <E, R>(events: E[], reply: R): Decision<E, R> => ({ ok: true, events, reply });

/** A refused decision. */
export const refuse = <E, R>(error: DomainError): Decision<E, R> => ({ ok: false, error });
