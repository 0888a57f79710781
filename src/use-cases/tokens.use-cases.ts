/** API tokens (admin, client) and personal tokens. Scopes are checked in the service mailbox. */
import { randomUUID } from 'node:crypto';
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import type { TokenHasher } from '../auth/token-hasher.js';
import { newSecret } from '../auth/tokens.js';
import { fail, failAt } from '../domain/errors.js';
import type { StoredToken } from '../domain/service-state.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import { rehashLegacyToken } from './token-rehash.use-cases.js';

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

const pastExpiry = () => failed<MintedToken>(failAt('ValidationError', 'expiresAt', 'must be in the future'));

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
 * The stored token a secret stands for, or undefined: found under its keyed hash (`TokenHasher.findStored`,
 * which reads the committed service state through the function handed to it), or else a token from before
 * keyed hashes, re-stored under its HMAC first ({@link rehashLegacyToken}: the one case answered through a
 * promise, so the hot path of every request stays synchronous).
 *
 * @example const token = await tokenForSecret(registry, hasher, secret); // then check expiry and scope
 */
export function tokenForSecret(registry: Registry, hasher: TokenHasher, secret: string, now = Date.now()): StoredToken | undefined | Promise<StoredToken | undefined> {
  const tokens = registry.service.state.tokens;
  const keyed = hasher.findStored(secret, (hash) => (Object.hasOwn(tokens, hash) ? tokens[hash] : undefined), now);
  return keyed ?? rehashLegacyToken(registry, hasher, secret, now);
}
