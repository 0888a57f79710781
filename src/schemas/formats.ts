/**
 * Pure string predicates behind the schemas' format rules. Kept apart from the
 * schemas so each rule can be tested on its own and reused (constraint values,
 * token expiry dates, payloads).
 */

/**
 * True when the name survives a URL path unchanged (`encodeURIComponent(s) === s`)
 * and is not `.` or `..`, which a URL resolver would collapse.
 *
 * @example isUrlFriendly('my-flag') // true
 * @example isUrlFriendly('a b')     // false
 */
export function isUrlFriendly(s: string): boolean {
  if (s === '.' || s === '..') return false;
  try {
    return encodeURIComponent(s) === s;
  } catch {
    // A lone surrogate makes encodeURIComponent throw; such a name is not URL-friendly.
    return false;
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * True for a finite decimal number written as a string (`"42"`, `"-1.5"`, `"2e3"`).
 * `Number()` alone would also take `""`, `" 1 "` and `"0x10"`, which no SDK
 * compares as the user meant.
 */
export function isNumericString(s: string): boolean {
  return DECIMAL.test(s) && Number.isFinite(Number(s));
}

// Straight from semver.org (2.0.0), no leading "v", no loose forms.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** True for a strict semantic version as defined by semver.org 2.0.0. */
export function isStrictSemver(s: string): boolean {
  return SEMVER.test(s);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * True for an ISO 8601 calendar date (`2024-05-01`) or a date-time with an
 * explicit offset (`2024-05-01T12:00:00Z`, `...T12:00:00.123+02:00`).
 * A date-time without offset is refused: its instant depends on the server's
 * time zone, so two SDKs could disagree on it.
 */
export function isIsoDateTime(s: string): boolean {
  const date = DATE_ONLY.exec(s);
  if (date) return isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]));
  const dt = DATE_TIME.exec(s);
  if (!dt) return false;
  const [, y, mo, d, h, mi, sec, , oh, om] = dt;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return false;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec ?? 0) > 59) return false;
  if (oh !== undefined && (Number(oh) > 23 || Number(om) > 59)) return false;
  return !Number.isNaN(Date.parse(s));
}
