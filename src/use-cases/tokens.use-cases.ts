/** API tokens (admin, client) and personal tokens. Scopes are checked in the service mailbox. */
import { randomUUID } from 'node:crypto';
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { hashSecret, newSecret, secretPrefix } from '../auth/tokens.js';
import { fail } from '../domain/errors.js';
import type { StoredToken } from '../domain/service-state.js';
import { failed, fromDecision, type Result } from './result.js';

/** A token created: its record and its secret, which is answered once and never stored, logged or listed. */
export interface MintedToken {
  token: StoredToken;
  secret: string;
}

function mint(input: Omit<StoredToken, 'id' | 'hash' | 'prefix' | 'createdAt'>): MintedToken {
  const secret = newSecret(input.type, input.projects, input.environment);
  const token: StoredToken = { id: randomUUID(), hash: hashSecret(secret), prefix: secretPrefix(secret), createdAt: new Date().toISOString(), ...input };
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
  input: { tokenName: string; type: 'admin' | 'client'; projects: string[]; environment: string; expiresAt?: string | undefined },
  principal: Principal,
): Promise<Result<MintedToken>> {
  const expiresAt = futureExpiry(input.expiresAt);
  if (expiresAt === false) return pastExpiry();
  const minted = mint({ tokenName: input.tokenName, type: input.type, projects: input.projects, environment: input.environment, expiresAt, userId: null });
  const created = await registry.service.send({ type: 'token.create', token: minted.token }, principalLabel(principal));
  return created.ok ? { ok: true, value: minted } : failed(created.error);
}

/** Creates a personal token that acts as the user (who must exist when the mailbox decides). */
export async function createPersonalToken(
  registry: Registry, input: { userId: number; description: string; expiresAt?: string | undefined }, principal: Principal,
): Promise<Result<MintedToken>> {
  const expiresAt = futureExpiry(input.expiresAt);
  if (expiresAt === false) return pastExpiry();
  const minted = mint({ tokenName: input.description, type: 'personal', projects: ['*'], environment: '*', expiresAt, userId: input.userId });
  const created = await registry.service.send({ type: 'token.create', token: minted.token }, principalLabel(principal));
  return created.ok ? { ok: true, value: minted } : failed(created.error);
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
