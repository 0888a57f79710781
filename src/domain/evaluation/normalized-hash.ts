/**
 * The bucket a sticky id falls into, computed exactly as the Node SDK's
 * `strategy/util.js` does so a user lands in the same bucket whichever of
 * flagpole or an SDK evaluates: murmurhash3 x86 32-bit of `groupId:id` from
 * the `murmurhash3js` package, which hashes each UTF-16 code unit `& 0xff`
 * rather than UTF-8 bytes (identical for ASCII, different otherwise, and
 * that difference is what the SDKs ship).
 */
import murmurhash3js from 'murmurhash3js';

/** Seed of rollout strategies (flexibleRollout, gradualRollout*). */
export const STRATEGY_SEED = 0;
/** Seed of variant selection, so variant buckets are independent of rollout buckets. */
export const VARIANT_SEED = 86028157;

/**
 * A value from 1 to `normalizer`.
 *
 * @example
 * normalizedValue('174', 'Feature.flexibleRollout.10', 100, STRATEGY_SEED) // 10
 */
export function normalizedValue(id: string, groupId: string, normalizer: number, seed: number): number {
  return (murmurhash3js.x86.hash32(`${groupId}:${id}`, seed) % normalizer) + 1;
}

/**
 * A rollout bucket from 1 to 100.
 *
 * @example
 * rolloutBucket('123', 'gr1') // 73
 */
export function rolloutBucket(id: string, groupId: string): number {
  return normalizedValue(id, groupId, 100, STRATEGY_SEED);
}

/**
 * A variant bucket from 1 to `totalWeight`.
 *
 * @example
 * variantBucket('2', 'Feature.Variants.B', 2) // 2
 */
export function variantBucket(id: string, groupId: string, totalWeight: number): number {
  return normalizedValue(id, groupId, totalWeight, VARIANT_SEED);
}
