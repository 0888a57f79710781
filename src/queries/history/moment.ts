/** A moment as pages give it (a date and time), read into the ISO form log records are stamped with. */
import { fail } from '../../domain/errors.js';
import { failed, ok, type Result } from '../../domain/result.js';

/**
 * `input` (an ISO 8601 date-time, with or without an offset, or a date) as `toISOString()` writes it, so
 * it compares with records' `at` as text; a 400 naming `name` when it is not a date.
 *
 * @example isoMoment('2026-03-01T10:00:00+01:00', 't') // ok('2026-03-01T09:00:00.000Z')
 */
export function isoMoment(input: string, name: string): Result<string> {
  const time = Date.parse(input);
  if (Number.isNaN(time)) return failed(fail('ValidationError', `${name} must be a date and time (ISO 8601, e.g. 2026-03-01T09:30:00Z), got ${JSON.stringify(input)}`));
  return ok(new Date(time).toISOString());
}
