import { createHash, createHmac } from 'node:crypto';
import { inspect } from 'node:util';

/** Fewest characters a token key may have (`TOKEN_SECRET`, or the text of the key file). */
export const TOKEN_KEY_MIN_LENGTH = 32;

/**
 * Hashes token secrets for storage and lookup: HMAC-SHA256 keyed with the installation's token key, which
 * is kept outside the data directory (docs/storage.md "Token hashes"), so a leaked data directory alone
 * cannot confirm a guessed secret. Built once from the configuration and passed to whoever hashes; the key
 * lives in a private field and prints as `[redacted]` (JSON, `util.inspect`, string conversion), so it is
 * never logged, dumped or answered by accident.
 *
 * @example new TokenHasher(key).hash('*:*.3f9c…') // 64 hex digits, the same for the same key and secret
 */
/** How many recently presented secrets keep their hash at hand. */
const RECENT_MAX = 1024;

export class TokenHasher {
  readonly #key: Buffer;

  /** `key`: the key's text (its UTF-8 bytes are the HMAC key), at least {@link TOKEN_KEY_MIN_LENGTH} characters. */
  constructor(key: string) {
    // The message never repeats the key, not even part of it.
    if (key.length < TOKEN_KEY_MIN_LENGTH) throw new Error(`a token key needs at least ${TOKEN_KEY_MIN_LENGTH} characters, got ${key.length}`);
    this.#key = Buffer.from(key, 'utf8');
  }

  /**
   * The hashes of the secrets presented lately: every authenticated request hashes its token, and SDKs send
   * the same few tokens all day. Bounded; emptied when full. It holds what the requests carried anyway.
   */
  readonly #recent = new Map<string, string>();

  /** The stored form of a secret: hex HMAC-SHA256 under this key. */
  hash(secret: string): string {
    let hash = this.#recent.get(secret);
    if (hash === undefined) {
      hash = createHmac('sha256', this.#key).update(secret, 'utf8').digest('hex');
      if (this.#recent.size >= RECENT_MAX) this.#recent.clear();
      this.#recent.set(secret, hash);
    }
    return hash;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return 'TokenHasher([redacted])';
  }

  [inspect.custom](): string {
    return 'TokenHasher([redacted])';
  }
}

/**
 * The unkeyed SHA-256 that versions before keyed hashes stored. Only used to find such a record and re-store
 * it under its HMAC (`token.rehash`); nothing new is ever stored under it.
 */
export const legacyHash = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
