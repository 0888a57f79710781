/**
 * Reading context fields the way the Node SDK does (`context[name] ??
 * context.properties[name]`, stringified), but only from own properties and
 * only scalar values: `__proto__`, `constructor` or an object whose
 * `toString` throws must read as missing, not as whatever the prototype holds.
 */
import type { EvaluationContext } from './evaluation.types.js';

const hasOwn = Object.prototype.hasOwnProperty;

function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return String(value);
    default:
      // A Date only reaches here as `currentTime`; its ISO text is the only sensible string.
      return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
  }
}

function own(record: object | null | undefined, key: string): unknown {
  return record != null && typeof record === 'object' && hasOwn.call(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The context value a constraint, override or custom stickiness names.
 *
 * @example
 * resolveContextValue({ userId: '7' }, 'userId')                 // '7'
 * resolveContextValue({ properties: { plan: 'pro' } }, 'plan')   // 'pro'
 * resolveContextValue({ properties: {} }, '__proto__')            // undefined
 */
export function resolveContextValue(context: EvaluationContext, name: string): string | undefined {
  const top = scalar(own(context, name));
  if (top !== undefined) return top;
  return scalar(own(own(context, 'properties') as object | undefined, name));
}

/**
 * A top-level field only (no `properties` fallback), as the SDK's
 * `context.userId` reads it; may be the empty string.
 */
export function topLevelField(context: EvaluationContext, name: 'userId' | 'sessionId' | 'remoteAddress'): string | undefined {
  return scalar(own(context, name));
}

/**
 * One of the standard top-level fields (userId, sessionId, remoteAddress) as
 * a non-empty string, or undefined: the SDK's stickiness and legacy
 * strategies test these with plain truthiness.
 *
 * @example
 * standardField({ userId: '' }, 'userId') // undefined
 */
export function standardField(context: EvaluationContext, name: 'userId' | 'sessionId' | 'remoteAddress'): string | undefined {
  const value = topLevelField(context, name);
  return value === '' ? undefined : value;
}

/**
 * The instant DATE_* constraints compare with, in epoch milliseconds: the
 * context's `currentTime`, or now. NaN for an unparsable time, which makes
 * every comparison false (the SDK's `new Date(invalid)` does the same).
 */
export function currentTimeMillis(context: EvaluationContext): number {
  const value = own(context, 'currentTime');
  // Any falsy value means "not given", as the SDK's `context.currentTime ? ... : new Date()`.
  if (!value) return Date.now();
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') return Date.parse(value);
  return typeof value === 'number' ? value : Number.NaN;
}
