import { StoreUnavailableError } from '../store.js';
import { scrub, type DatabaseOptions } from './pg-options.js';

/** What became of a write that failed, by its error. */
export type WriteFailure =
  /** The database answered with an error: the statement was rolled back, nothing of it is stored. */
  | 'refused'
  /** An append at a position a log holds (the log table's primary key). */
  | 'conflict'
  /** The connection broke after the statement was sent: it may have committed. */
  | 'unknown';

/** The fields of the driver's errors this module reads. */
interface DriverError {
  code?: string;
  severity?: string;
  constraint?: string;
  message?: string;
}

/**
 * What a failed write's error says of its outcome. An error the server answered at `ERROR` severity ends the
 * statement's transaction (rolled back); anything else after the statement was sent (a broken connection, a
 * `FATAL` shutdown, the driver's own timeout) leaves the outcome open, to be found out.
 */
export function writeFailure(error: unknown, logPrimaryKey: string): WriteFailure {
  const e = error as DriverError;
  if (e.severity === 'ERROR' && e.code === '23505' && e.constraint === logPrimaryKey) return 'conflict';
  if (e.severity === 'ERROR') return 'refused';
  return 'unknown';
}

/**
 * A driver error as the store reports it: a {@link StoreUnavailableError} whose message is scrubbed of
 * credentials (`scrub`) and carries none of the driver's fields (addresses, parameters), only its code.
 */
export function unavailable(error: unknown, options: Pick<DatabaseOptions, 'url'>, doing: string): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const e = error as DriverError;
  const message = scrub(typeof e.message === 'string' && e.message !== '' ? e.message : String(error), options).slice(0, 300);
  return new StoreUnavailableError(`PostgreSQL: ${doing}: ${message}`, e.code);
}

/**
 * A line for `/health`, which anyone may read: what failed and the error's code, no message (a message may
 * name hosts and users).
 */
export function healthLine(error: unknown): string {
  const code = (error as DriverError).code;
  if (error instanceof StoreUnavailableError && error.message.startsWith('PostgreSQL: another')) return error.message;
  return `the database did not take the write${code ? ` (${code})` : ''}`;
}

/** The database is in use: nodes run on it (and an offline tool asked for it alone), or a tool holds it alone. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';

  constructor(label: string, wanted: 'exclusive' | 'shared') {
    super(wanted === 'exclusive'
      ? `PostgreSQL: flagpole is running on the database ${label}: stop every node first (an offline tool works on a database nothing else uses; a running service is copied with flagpole backup)`
      : `PostgreSQL: an offline flagpole tool (dump, restore, copy-store, migrate) is working on the database ${label}: wait for it to end`);
  }
}
