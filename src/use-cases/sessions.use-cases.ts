/** Console sign-in and sessions (README "Console"): who signs in, and the sessions that remember them. */
import type { Registry } from '../actors/registry.js';
import type { SessionRecord } from '../actors/session-store.js';
import { dummyPasswordHash, verifyPassword } from '../auth/passwords.js';
import { newSessionId, passwordStamp, sessionKey } from '../auth/session-keys.js';
import type { TokenHasher } from '../auth/token-hasher.js';
import { tokenFromHeader } from '../auth/tokens.js';
import { fail } from '../domain/errors.js';
import { failed, ok, type Result } from '../domain/result.js';
import type { StoredToken, User } from '../domain/service-state.js';
import { tokenForSecret } from './tokens.use-cases.js';

/** The one answer to any wrong credential: it never tells whether the user or the token exists. */
export const WRONG_CREDENTIALS = 'Wrong username or password';
/** The same for the token form. */
export const WRONG_TOKEN = 'This API token cannot sign in: it is unknown, expired, or not an admin or personal token';

/** Who a sign-in proved to be: a user by password, or the stored token that was presented. */
export type SignedIn = { kind: 'password'; user: User } | { kind: 'token'; token: StoredToken };

/** The user whose username or email is `name` (either, case-insensitively). */
function userNamed(registry: Registry, name: string): User | undefined {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') return undefined;
  return Object.values(registry.service.state.users).find((u) => u.username?.toLowerCase() === wanted || u.email?.toLowerCase() === wanted);
}

/**
 * The account a sign-in with `name` counts its failures against: the user the name resolves to, so the
 * username and the email share one budget; a name that is no user's counts under itself (`name:<lower-cased>`);
 * an empty name under none.
 *
 * @example signInAccount(registry, 'Ann@Example.com') // 'user:3'
 */
export function signInAccount(registry: Registry, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') return undefined;
  const user = userNamed(registry, wanted);
  return user ? accountOf(user.id) : `name:${wanted}`;
}

/** The sign-in account of user `userId` (see {@link signInAccount}). */
export const accountOf = (userId: number): string => `user:${userId}`;

/**
 * Checks a username (or email) and password. An unknown user, a user without a password and a wrong
 * password fail alike, after the same scrypt work (an unknown user is checked against a dummy hash).
 */
export async function checkPassword(registry: Registry, input: { username: string; password: string }): Promise<Result<SignedIn>> {
  const user = userNamed(registry, input.username);
  const stored = user ? registry.service.state.passwords[String(user.id)] : undefined;
  const matches = await verifyPassword(input.password, stored ?? await dummyPasswordHash(registry.passwordWork));
  // Read again: the user may have been deleted, or the password changed, while scrypt ran.
  if (!user || !stored || !matches || registry.service.state.passwords[String(user.id)] !== stored) return failed(fail('AuthenticationRequired', WRONG_CREDENTIALS));
  return ok({ kind: 'password', user });
}

/** Checks an API token for signing in: an admin or a personal token, unexpired; a client or frontend token never. */
export async function checkToken(registry: Registry, hasher: TokenHasher, text: string, now = Date.now()): Promise<Result<SignedIn>> {
  const secret = tokenFromHeader(text.trim());
  const token = secret === null ? undefined : await tokenForSecret(registry, hasher, secret, now);
  const usable = token && (token.type === 'admin' || token.type === 'personal') && (token.expiresAt === null || Date.parse(token.expiresAt) > now);
  if (!usable) return failed(fail('AuthenticationRequired', WRONG_TOKEN));
  return ok({ kind: 'token', token });
}

/**
 * Starts a session for who signed in: stored (under the keyed hash of its id) before its id is returned, to
 * be handed to the browser once. The id itself is kept nowhere on the server.
 */
export async function startSession(registry: Registry, hasher: TokenHasher, who: SignedIn, now = Date.now()): Promise<string> {
  const id = newSessionId();
  const hash = who.kind === 'password' ? registry.service.state.passwords[String(who.user.id)] : undefined;
  const record: SessionRecord = {
    userId: who.kind === 'password' ? who.user.id : null,
    tokenHash: who.kind === 'token' ? who.token.hash : null,
    passwordStamp: hash === undefined ? null : passwordStamp(hasher, hash),
    createdAt: now,
    lastUsedAt: now,
  };
  await registry.sessions.create(sessionKey(hasher, id), record);
  return id;
}

/** Ends the session stored under `key` (sign-out). */
export function endSession(registry: Registry, key: string): Promise<void> {
  return registry.sessions.end(key);
}

/** Ends every session of a user signed in by password (a new password, a deleted user). */
export function endSessionsOfUser(registry: Registry, userId: number): Promise<number> {
  return registry.sessions.endWhere((record) => record.userId === userId);
}

/**
 * Ends every session of a user, however it signed in: by password, or by one of their personal tokens
 * ("sign out everywhere"). Their tokens keep working for the API.
 */
export function endEverySessionOf(registry: Registry, userId: number): Promise<number> {
  const tokens = registry.service.state.tokens;
  return registry.sessions.endWhere((record) => record.userId === userId
    || (record.tokenHash !== null && Object.hasOwn(tokens, record.tokenHash) && tokens[record.tokenHash]!.userId === userId));
}
