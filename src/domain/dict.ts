/**
 * Maps keyed by names users choose (a flag's environments, a project's default strategies and members, a
 * strategy's parameters) are null-prototype objects: no key can reach `Object.prototype`, whatever it is,
 * and a missing key reads as `undefined`, never as an inherited member. They serialize as plain JSON
 * objects; what is read back from JSON is turned into one again ({@link dict}).
 *
 * @example const environments = withKey(flag.environments, 'production', entry);
 */

/** A null-prototype copy of `source`'s own entries (or of `entries`). */
export function dict<T>(source?: Readonly<Record<string, T>> | Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (!source) return out;
  const entries = Symbol.iterator in source ? (source as Iterable<readonly [string, T]>) : Object.entries(source as Record<string, T>);
  for (const [key, value] of entries) define(out, key, value);
  return out;
}

/** A copy of `source` with `key` set to `value`. */
export function withKey<T>(source: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const out = dict(source);
  define(out, key, value);
  return out;
}

/** A copy of `source` without `key`. */
export function withoutKey<T>(source: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return dict(Object.entries(source).filter(([k]) => k !== key));
}

/** The value at `key` if `source` has it as its own. */
export const own = <T>(source: Readonly<Record<string, T>>, key: string): T | undefined =>
  (Object.hasOwn(source, key) ? source[key] : undefined);

function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
