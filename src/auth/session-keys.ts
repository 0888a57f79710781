/**
 * The secrets of a console session and what is derived from them under the installation's token key: the
 * session id lives only in the browser's cookie; the store keeps its keyed hash; the CSRF token is an HMAC of
 * it. Each derivation has its own label, so no derived value can stand in for another.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenHasher } from './token-hasher.js';

/** A new session id: 32 random bytes, base64url (43 characters). */
export const newSessionId = (): string => randomBytes(32).toString('base64url');

/** What a session id looks like; anything else in the cookie is ignored without hashing it. */
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** The key a session is stored under: the keyed hash of its id (a leaked store alone cannot be replayed). */
export const sessionKey = (hasher: TokenHasher, sessionId: string): string => hasher.hash(`session:${sessionId}`);

/** The CSRF token of a session: the forms and htmx requests of its pages carry it. */
export const sessionCsrfToken = (hasher: TokenHasher, sessionId: string): string => hasher.hash(`csrf:${sessionId}`);

/** The CSRF token of the sign-in forms, bound to the nonce in the browser's pre-session cookie. */
export const loginCsrfToken = (hasher: TokenHasher, nonce: string): string => hasher.hash(`login-csrf:${nonce}`);

/**
 * What a session remembers of the password it was started with: a keyed digest of the stored hash, so a
 * new password (a new salt) ends every session of the old one, even one whose deletion a crash interrupted.
 */
export const passwordStamp = (hasher: TokenHasher, passwordHash: string): string => hasher.hash(`password:${passwordHash}`).slice(0, 32);

/**
 * Whether two tokens are equal, in time independent of where they differ. Compared as bytes: a sent text of
 * the right length in characters may be longer in UTF-8 (a non-ASCII character), and is then simply unequal.
 */
export function sameToken(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const sent = Buffer.from(a);
  const expected = Buffer.from(b);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
