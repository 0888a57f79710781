/** How many secrets {@link MatchedSecrets} keeps at most, by default. */
export const MATCHED_SECRETS_MAX = 1024;

/** How long {@link MatchedSecrets} keeps a secret after its last match, by default: ten minutes. */
export const MATCHED_SECRETS_TTL_MS = 10 * 60_000;

/**
 * The keyed hashes of secrets that matched a stored token lately, so the SDKs that send the same few tokens all
 * day are not hashed again on every request. Only the caller decides what goes in (a secret that matched);
 * at most `max` secrets stay, the least recently matched leaving first, and each leaves `ttlMs` after its last
 * match. The map's order is the order of last use, which is also the order of expiry, so expired entries are
 * dropped from its front on every call.
 *
 * @example const known = new MatchedSecrets(); known.set(secret, hash, Date.now()); known.get(secret, Date.now()) // hash
 */
export class MatchedSecrets {
  readonly #entries = new Map<string, { hash: string; expires: number }>();

  constructor(
    private readonly max = MATCHED_SECRETS_MAX,
    private readonly ttlMs = MATCHED_SECRETS_TTL_MS,
  ) {}

  /** The hash remembered for `secret`, unless it expired; a hit counts as a use (it moves to the back, expiring later). */
  get(secret: string, now: number): string | undefined {
    this.#dropExpired(now);
    const entry = this.#entries.get(secret);
    if (entry === undefined) return undefined;
    this.#entries.delete(secret);
    // Checked again in case the clock went back, which breaks the order `#dropExpired` relies on.
    if (entry.expires <= now) return undefined;
    entry.expires = now + this.ttlMs;
    this.#entries.set(secret, entry);
    return entry.hash;
  }

  /** Remembers that `secret` matched a stored token under `hash`; the least recently used leaves when full. */
  set(secret: string, hash: string, now: number): void {
    this.#dropExpired(now);
    this.#entries.delete(secret);
    this.#entries.set(secret, { hash, expires: now + this.ttlMs });
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** Forgets `secret` (its token was revoked, or matches no more). */
  delete(secret: string): void {
    this.#entries.delete(secret);
  }

  /** How many secrets are kept now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Whether `secret` is kept now (expired or not): for tests, which must see that a secret is gone. */
  has(secret: string): boolean {
    return this.#entries.has(secret);
  }

  #dropExpired(now: number): void {
    for (const [secret, entry] of this.#entries) {
      if (entry.expires > now) return;
      this.#entries.delete(secret);
    }
  }
}
