/** Tokens from before keyed hashes: re-stored under their HMAC on first use. docs/storage.md "Token hashes". */
import { StorageError } from '../actors/storage-error.js';
import type { Registry } from '../actors/registry.js';
import { legacyHash, type TokenHasher } from '../auth/token-hasher.js';
import type { StoredToken } from '../domain/service-state.js';

/**
 * The token stored under the unkeyed SHA-256 of `secret` (as versions before keyed hashes stored it), or
 * undefined. Unless it is expired, it is first re-stored under its HMAC through the service mailbox
 * (`token.rehash`, durable before this resolves), so its unkeyed hash leaves the state on first use. A token
 * revoked meanwhile is undefined. Answers without a write (and without a promise) when there is no such
 * token, which is every request of a secret that is not stored at all.
 *
 * @example const token = await rehashLegacyToken(registry, hasher, secret); // then check expiry and scope
 */
export function rehashLegacyToken(registry: Registry, hasher: TokenHasher, secret: string, now = Date.now()): StoredToken | undefined | Promise<StoredToken | undefined> {
  const tokens = registry.service.state.tokens;
  const hash = legacyHash(secret);
  const legacy = Object.hasOwn(tokens, hash) ? tokens[hash] : undefined;
  // An expired token is refused anyway: no write for a request that gets a 401.
  if (!legacy || (legacy.expiresAt !== null && Date.parse(legacy.expiresAt) <= now)) return legacy;
  // Re-storing is an improvement, not a condition of access: while the disk fails writes, or the service
  // log is read-only, the token still authenticates (reads must keep working) and is re-stored on a later use.
  if (registry.writeHealth(now).failingSince !== null) return legacy;
  return registry.service.send({ type: 'token.rehash', id: legacy.id, hash: hasher.hash(secret) }, 'system').then(
    (rehashed) => (rehashed.ok ? rehashed.reply : rehashed.error.kind === 'Unavailable' ? legacy : undefined),
    (error: unknown) => {
      if (error instanceof StorageError) return legacy;
      throw error;
    },
  );
}
