/**
 * What the engine reads per request and what it answers, in the Unleash
 * SDK's vocabulary, so the frontend API can put a result on the wire as is.
 */
import type { Payload } from '../types.js';

/**
 * The Unleash context. Fields are strings as they arrive over HTTP; a number
 * or boolean is read as its string, anything else (objects, arrays) as
 * missing. Other top-level keys are looked up too, as the SDK does, but the
 * frontend API puts unknown keys in `properties`.
 *
 * @example
 * const context: EvaluationContext = { userId: '42', properties: { plan: 'pro' } };
 */
export interface EvaluationContext {
  readonly userId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly remoteAddress?: string | undefined;
  readonly environment?: string | undefined;
  readonly appName?: string | undefined;
  /** ISO 8601 text or a Date; absent means now. */
  readonly currentTime?: string | Date | undefined;
  readonly properties?: Readonly<Record<string, string | number | boolean | null | undefined>> | undefined;
}

/**
 * The variant a caller receives, as the Node SDK's `getVariant` shapes it.
 * `payload` is absent (not undefined) when the variant has none.
 */
export interface EvaluatedVariant {
  readonly name: string;
  readonly enabled: boolean;
  readonly payload?: Payload;
  /** Deprecated spelling that the browser SDK and the spec still read. */
  readonly feature_enabled: boolean;
  readonly featureEnabled: boolean;
}

/** The answer of the fast path. */
export interface Evaluation {
  readonly enabled: boolean;
  readonly variant: EvaluatedVariant;
}
