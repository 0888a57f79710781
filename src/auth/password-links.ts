/**
 * The secret of a one-time link to set a password: random, shown once to the admin who made it, carried in the
 * link's fragment (`/set-password#<secret>`, never sent in a request line or a Referer); the store keeps only its
 * keyed hash under its own label, so no other derived value can stand in for it.
 */
import { randomBytes } from 'node:crypto';
import type { TokenHasher } from './token-hasher.js';

/** A new link secret: 32 random bytes, base64url (43 characters). */
export const newLinkSecret = (): string => randomBytes(32).toString('base64url');

/** What a link secret looks like; anything else is refused without hashing it. */
export const LINK_SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * The key a link is stored under: the keyed hash of its secret.
 *
 * @example passwordLinkKey(hasher, newLinkSecret()) // 64 hex digits
 */
export const passwordLinkKey = (hasher: TokenHasher, secret: string): string => hasher.hash(`password-link:${secret}`);
