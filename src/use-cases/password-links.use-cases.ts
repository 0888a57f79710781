/**
 * One-time links to set a password (docs/limits.md "Sign-in"): an admin makes one for a user, the user opens it
 * once, before it expires, and chooses a password under the same rules as the API's. Made and used through the
 * service mailbox like every write, so a link survives a restart and two uses at once set one password.
 */
import type { Registry } from '../actors/registry.js';
import { LINK_SECRET, newLinkSecret, passwordLinkKey } from '../auth/password-links.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import type { TokenHasher } from '../auth/token-hasher.js';
import { LINK_ENDED } from '../domain/decide/service-users.js';
import { fail } from '../domain/errors.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import type { User } from '../domain/service-state.js';
import { PASSWORD_LINK_HOURS } from '../limits.js';
import { acceptablePasswordHash } from './passwords.use-cases.js';
import { endSessionsOfUser } from './sessions.use-cases.js';

/** A link made: its secret (answered once, never stored or logged), whose it is and until when it works. */
export interface MintedLink {
  secret: string;
  user: User;
  expiresAt: string;
}

/** Makes a one-time link for user `userId`, replacing any link they had. */
export async function createPasswordLink(registry: Registry, hasher: TokenHasher, input: { userId: number }, principal: Principal, now = Date.now()): Promise<Result<MintedLink>> {
  const secret = newLinkSecret();
  const expiresAt = new Date(now + PASSWORD_LINK_HOURS * 3_600_000).toISOString();
  const made = await registry.service.send({ type: 'user.password-link.create', userId: input.userId, hash: passwordLinkKey(hasher, secret), expiresAt }, principalLabel(principal));
  return made.ok ? ok({ secret, user: made.reply, expiresAt }) : failed(made.error);
}

/**
 * The user whose unexpired link `secret` is, or the one 404 for any link that cannot be used (unknown,
 * expired, used, or its user deleted).
 */
export function passwordLinkUser(registry: Registry, hasher: TokenHasher, secret: string, now = Date.now()): Result<User> {
  const state = registry.service.state;
  const link = LINK_SECRET.test(secret) ? state.passwordLinks?.[passwordLinkKey(hasher, secret)] : undefined;
  const user = link ? state.users[String(link.userId)] : undefined;
  if (!link || !user || Date.parse(link.expiresAt) <= now) return failed(fail('NotFoundError', LINK_ENDED));
  return ok(user);
}

/**
 * Sets the password of the link's user and ends the link; their sessions signed in with an older password end.
 * A password the rules refuse leaves the link as it was, to try another.
 */
export async function usePasswordLink(registry: Registry, hasher: TokenHasher, input: { secret: string; password: string }): Promise<Result<User>> {
  const user = passwordLinkUser(registry, hasher, input.secret);
  if (!user.ok) return user;
  const hash = await acceptablePasswordHash(input.password, [user.value.username, user.value.email], registry.passwordWork);
  if (!hash.ok) return hash;
  const used = fromDecision(await registry.service.send({ type: 'user.password-link.use', hash: passwordLinkKey(hasher, input.secret), passwordHash: hash.value }, `user:${user.value.id}`));
  if (!used.ok) return used;
  await endSessionsOfUser(registry, used.value.id);
  return used;
}
