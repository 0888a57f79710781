import { createHash, createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { MatchedSecrets } from './matched-secrets.js';

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
export class TokenHasher {
  readonly #key: Buffer;
  readonly #matched: MatchedSecrets;

  /**
   * `key`: the key's text (its UTF-8 bytes are the HMAC key), at least {@link TOKEN_KEY_MIN_LENGTH} characters.
   * `matched`: where {@link findStored} remembers the hashes of secrets that matched a stored token.
   */
  constructor(key: string, matched = new MatchedSecrets()) {
    // The message never repeats the key, not even part of it.
    if (key.length < TOKEN_KEY_MIN_LENGTH) throw new Error(`a token key needs at least ${TOKEN_KEY_MIN_LENGTH} characters, got ${key.length}`);
    this.#key = Buffer.from(key, 'utf8');
    this.#matched = matched;
  }

  /** The stored form of a secret: hex HMAC-SHA256 under this key. */
  hash(secret: string): string {
    return createHmac('sha256', this.#key).update(secret, 'utf8').digest('hex');
  }

  /**
   * What `read` finds under the keyed hash of a secret a caller presents, or undefined. The hash of a secret
   * under which `read` finds something is remembered (bounded in count and time: {@link MatchedSecrets}), so
   * the same token is not hashed again on every request; a secret under which it finds nothing, a forged one
   * or one revoked since, is not kept.
   *
   * @example hasher.findStored(secret, (hash) => tokens[hash]) // the stored token, or undefined
   */
  findStored<T>(secret: string, read: (hash: string) => T | undefined, now = Date.now()): T | undefined {
    const remembered = this.#matched.get(secret, now);
    const hash = remembered ?? this.hash(secret);
    const found = read(hash);
    if (found === undefined) {
      if (remembered !== undefined) this.#matched.delete(secret);
    } else if (remembered === undefined) {
      this.#matched.set(secret, hash, now);
    }
    return found;
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
