/**
 * Masks secrets wherever they appear in what the delivery log keeps (a URL in `details`, an error message that
 * quotes it): every occurrence of each secret in every string becomes `*****`.
 */
import { MASKED_VALUE } from '../domain/addons/addon.js';

/**
 * `value` with every occurrence of each of `secrets` in its strings replaced by `*****` (objects and arrays copied).
 *
 * @example redacted({ url: 'https://hooks.example.com/T0/B1/xyz' }, ['https://hooks.example.com/T0/B1/xyz']) // { url: '*****' }
 */
export function redacted<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  // Longest first, so a secret inside another (a token in a URL) leaves no part of the longer one behind.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return ordered.reduce((text, secret) => text.split(secret).join(MASKED_VALUE), v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
    return v;
  };
  return walk(value) as T;
}
