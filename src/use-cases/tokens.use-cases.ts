/** API tokens (admin, client) and personal tokens. Scopes are checked in the service mailbox. */
import { randomUUID } from 'node:crypto';
import { StorageError } from '../actors/storage-error.js';
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { legacyHash, type TokenHasher } from '../auth/token-hasher.js';
import { newSecret, storedUnder } from '../auth/tokens.js';
import { fail } from '../domain/errors.js';
import type { StoredToken } from '../domain/service-state.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';

/** A token created: its record and its secret, which is answered once and never stored, logged or listed. */
export interface MintedToken {
  token: StoredToken;
  secret: string;
}

function mint(hasher: TokenHasher, input: Omit<StoredToken, 'id' | 'hash' | 'prefix' | 'createdAt'>): MintedToken {
  const secret = newSecret(input.type, input.projects, input.environment);
  const token: StoredToken = { id: randomUUID(), hash: hasher.hash(secret), createdAt: new Date().toISOString(), ...input };
  return { secret, token };
}

function futureExpiry(expiresAt: string | undefined): string | null | false {
  if (expiresAt === undefined) return null;
  return Date.parse(expiresAt) <= Date.now() ? false : expiresAt;
}

const pastExpiry = () => failed<MintedToken>(fail('ValidationError', '"expiresAt": must be in the future'));

/** Creates an admin or client token for existing projects and an existing environment. */
export async function createApiToken(
  registry: Registry,
  hasher: TokenHasher,
  input: { tokenName: string; type: 'admin' | 'client' | 'frontend'; projects: string[]; environment: string; expiresAt?: string | undefined },
  principal: Principal,
): Promise<Result<MintedToken>> {
  const expiresAt = futureExpiry(input.expiresAt);
  if (expiresAt === false) return pastExpiry();
  const minted = mint(hasher, { tokenName: input.tokenName, type: input.type, projects: input.projects, environment: input.environment, expiresAt, userId: null });
  const created = await registry.service.send({ type: 'token.create', token: minted.token }, principalLabel(principal));
  return created.ok ? ok(minted) : failed(created.error);
}

/** Creates a personal token that acts as the user (who must exist when the mailbox decides). */
export async function createPersonalToken(
  registry: Registry, hasher: TokenHasher, input: { userId: number; description: string; expiresAt?: string | undefined }, principal: Principal,
): Promise<Result<MintedToken>> {
  const expiresAt = futureExpiry(input.expiresAt);
  if (expiresAt === false) return pastExpiry();
  const minted = mint(hasher, { tokenName: input.description, type: 'personal', projects: ['*'], environment: '*', expiresAt, userId: input.userId });
  const created = await registry.service.send({ type: 'token.create', token: minted.token }, principalLabel(principal));
  return created.ok ? ok(minted) : failed(created.error);
}

/** Revokes a token found by its listing id; `userId` narrows it to that user's personal tokens. */
export async function revokeToken(registry: Registry, input: { id: string; userId?: number }, principal: Principal): Promise<Result<StoredToken>> {
  const service = registry.service.state;
  if (input.userId !== undefined && !service.users[String(input.userId)]) return failed(fail('NotFoundError', `Could not find user with id ${input.userId}`));
  const token = Object.values(service.tokens).find((t) => t.id === input.id && (input.userId === undefined ? t.type !== 'personal' : t.userId === input.userId));
  if (!token) {
    return failed(fail('NotFoundError', input.userId === undefined ? `Could not find API token "${input.id}"` : `User ${input.userId} has no token "${input.id}"`));
  }
  return fromDecision(await registry.service.send({ type: 'token.delete', hash: token.hash }, principalLabel(principal)));
}

/**
 * The stored token a secret stands for, or undefined: found under its HMAC, or else under the unkeyed
 * SHA-256 that versions before keyed hashes stored. Such a legacy record, unless expired, is first re-stored
 * under its HMAC through the service mailbox (`token.rehash`, durable before this resolves), so its unkeyed
 * hash leaves the state on first use (the one case answered through a promise: the hot path of every
 * request stays synchronous). A token revoked meanwhile is undefined.
 *
 * @example const token = await tokenForSecret(registry, hasher, secret); // then check expiry and scope
 */
export function tokenForSecret(registry: Registry, hasher: TokenHasher, secret: string, now = Date.now()): StoredToken | undefined | Promise<StoredToken | undefined> {
  const hash = hasher.hash(secret);
  const keyed = storedUnder(registry.service.state.tokens, hash);
  if (keyed) return keyed;
  const legacy = storedUnder(registry.service.state.tokens, legacyHash(secret));
  // An expired token is refused anyway: no write for a request that gets a 401.
  if (!legacy || (legacy.expiresAt !== null && Date.parse(legacy.expiresAt) <= now)) return legacy;
  // Re-storing is an improvement, not a condition of access: while the disk fails writes, or the service
  // log is read-only, the token still authenticates (reads must keep working) and is re-stored on a later use.
  if (registry.writeHealth(now).failingSince !== null) return legacy;
  return registry.service.send({ type: 'token.rehash', id: legacy.id, hash }, 'system').then(
    (rehashed) => (rehashed.ok ? rehashed.reply : rehashed.error.kind === 'Unavailable' ? legacy : undefined),
    (error: unknown) => {
      if (error instanceof StorageError) return legacy;
      throw error;
    },
  );
}
