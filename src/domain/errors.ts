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

/** One issue of a refused input: its text and, when it is about one field, that field's dot path (`constraints.0.values`). */
export interface ErrorDetail {
  message: string;
  path?: string;
}

export interface DomainError {
  kind: ErrorKind;
  message: string;
  details?: ErrorDetail[];
  /**
   * The dot path of the one input field the whole error is about, when it names one (`failAt`): where a form
   * marks it. The API's error body carries it in the message only (`"expiresAt": ...`).
   */
  path?: string;
  /** `PermissionError`: the permissions the caller lacks (the body lists them, as Unleash's does). */
  permissions?: string[];
}

/** Builds a {@link DomainError}. @example fail('NotFoundError', 'no flag "a"') */
export const fail = (kind: ErrorKind, message: string, details?: ErrorDetail[]): DomainError =>
  details ? { kind, message, details } : { kind, message };

/** A failure whose message stays as it is, noted as being about the input field at `path`. @example about('email', fail('NameExistsError', 'A user with email "a@b.c" already exists')) */
export const about = (path: string, error: DomainError): DomainError => ({ ...error, path });

/**
 * A failure about one field of the input: the message `"<label>": <text>` (the label is the path unless the
 * message has always named it otherwise), and the field's dot path for forms.
 *
 * @example failAt('ValidationError', 'expiresAt', 'must be in the future') // message '"expiresAt": must be in the future', path 'expiresAt'
 */
export function failAt(kind: ErrorKind, path: string, text: string, { label = path, details }: { label?: string; details?: ErrorDetail[] } = {}): DomainError {
  const message = `"${label}": ${text}`;
  return details ? { kind, message, details, path } : { kind, message, path };
}

/** What deciding a command gives: the events to record and the reply, or an expected failure. */
export type Decision<E, R> = { ok: true; events: E[]; reply: R } | { ok: false; error: DomainError };

/** An accepted decision. */
export const accept = <E, R>(events: E[], reply: R): Decision<E, R> => ({ ok: true, events, reply });

/** A refused decision. */
export const refuse = <E, R>(error: DomainError): Decision<E, R> => ({ ok: false, error });
