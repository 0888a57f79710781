import { LRUCache } from 'lru-cache';

/** How many secrets {@link MatchedSecrets} keeps at most, by default. */
export const MATCHED_SECRETS_MAX = 1024;

/** How long {@link MatchedSecrets} keeps a secret after its last match, by default: ten minutes. */
export const MATCHED_SECRETS_TTL_MS = 10 * 60_000;

/**
 * The keyed hashes of secrets that matched a stored token lately, so the SDKs that send the same few tokens all
 * day are not hashed again on every request. Only the caller decides what goes in (a secret that matched);
 * at most `max` secrets stay, the least recently matched leaving first, and each leaves `ttlMs` after its last
 * match (`lru-cache`, with the caller's clock so tests can move time). `max` 0 keeps nothing.
 *
 * @example const known = new MatchedSecrets(); known.set(secret, hash, Date.now()); known.get(secret, Date.now()) // hash
 */
export class MatchedSecrets {
  #now = 0;
  readonly #cache: LRUCache<string, string> | undefined;

  constructor(max = MATCHED_SECRETS_MAX, ttlMs = MATCHED_SECRETS_TTL_MS) {
    this.#cache = max > 0 && ttlMs > 0
      ? new LRUCache({ max, ttl: ttlMs, updateAgeOnGet: true, ttlResolution: 0, perf: { now: () => this.#now } })
      : undefined;
  }

  /** The hash remembered for `secret`, unless it expired; a hit counts as a use (it expires one period later). */
  get(secret: string, now: number): string | undefined {
    this.#now = now;
    return this.#cache?.get(secret);
  }

  /** Remembers that `secret` matched a stored token under `hash`; the least recently used leaves when full. */
  set(secret: string, hash: string, now: number): void {
    this.#now = now;
    this.#cache?.set(secret, hash);
  }

  /** Forgets `secret` (its token was revoked, or matches no more). */
  delete(secret: string): void {
    this.#cache?.delete(secret);
  }

  /** How many unexpired secrets are kept at the time of the last call. */
  get size(): number {
    this.#cache?.purgeStale();
    return this.#cache?.size ?? 0;
  }

  /** Whether `secret` is kept, unexpired, at the time of the last call: for tests, which must see that a secret is gone. */
  has(secret: string): boolean {
    return this.#cache?.has(secret) ?? false;
  }
}
