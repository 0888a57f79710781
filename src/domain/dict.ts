/**
 * Maps keyed by names users choose (a flag's environments, a project's default strategies and members, a
 * strategy's parameters) are objects that inherit nothing: no key can reach `Object.prototype`, whatever it is,
 * and a missing key reads as `undefined`, never as an inherited member. They serialize as plain JSON
 * objects; what is read back from JSON is turned into one again ({@link dict}).
 *
 * @example const environments = withKey(flag.environments, 'production', entry);
 */

/**
 * A copy of `source`'s own entries (or of `entries`) that inherits nothing. Plain assignment is safe here: the
 * copy has no prototype, so no `__proto__` setter to reach, and that key becomes an own property like any other.
 */
export function dict<T>(source?: Readonly<Record<string, T>> | Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (!source) return out;
  if (Symbol.iterator in source) {
    for (const [key, value] of source as Iterable<readonly [string, T]>) out[key] = value;
    return out;
  }
  const from = source as Readonly<Record<string, T>>;
  for (const key in from) if (Object.hasOwn(from, key)) out[key] = from[key]!;
  return out;
}

/** A copy of `source` with `key` set to `value`. */
export function withKey<T>(source: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const out = dict(source);
  out[key] = value;
  return out;
}

/** A copy of `source` without `key`. */
export function withoutKey<T>(source: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const out = dict(source);
  delete out[key];
  return out;
}

/** The value at `key` if `source` has it as its own. */
export const own = <T>(source: Readonly<Record<string, T>>, key: string): T | undefined =>
  (Object.hasOwn(source, key) ? source[key] : undefined);
