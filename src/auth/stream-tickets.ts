import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_TICKET_LENGTH } from '../schemas/ofrep.schema.js';
import type { TokenHasher } from './token-hasher.js';

/** What a stream ticket stands for: the API token it was issued to (null under `AUTH_TYPE=none`) and that token's scope. */
export interface TicketClaims {
  /** The token's non-secret id (`StoredToken.id`), null for the `AUTH_TYPE=none` caller. */
  token: string | null;
  /** The fingerprint of the scope the token had when the ticket was issued ({@link scopeFingerprint}). */
  scope: string;
  /** Expiry, seconds since the epoch. */
  expires: number;
}

/** Why a ticket is refused (the 401 message names the kind, never the ticket). */
export type TicketRefusal = 'malformed' | 'forged' | 'expired';

const PURPOSE = 'ofrep-sse';
const VERSION = 'v1';

/**
 * Short-lived credentials for the OFREP event stream (`GET /ofrep/v1/events?ticket=...`): EventSource sends no
 * headers, so the URL must carry a credential, and it must never be the API token itself (URLs end up in
 * proxy logs, browser history and `Referer`s). A ticket is `v1.<payload>.<mac>`: the payload (base64url JSON)
 * names the token's non-secret id, a fingerprint of its scope and an expiry; the MAC is HMAC-SHA256 under a key derived from
 * the installation's token key, so only this installation mints them and none can be altered.
 *
 * Tickets issued in the same window of `lifetime / 2` seconds are identical (the bulk answer that carries the
 * stream URL keeps one `ETag` for that long) and each is valid for between `lifetime / 2` and `lifetime`
 * seconds from its issue. A ticket only opens a stream; the stream's messages only say "fetch again", which
 * needs the real token.
 *
 * @example const tickets = new StreamTickets(hasher, 900); const t = tickets.issue({ token: 'id', scope: scopeFingerprint(['default'], 'development') });
 */
export class StreamTickets {
  readonly #key: Buffer;

  constructor(hasher: TokenHasher, private readonly lifetimeSeconds: number) {
    // The token hasher is an HMAC under the installation's key: hashing a fixed label derives a key of our own.
    this.#key = Buffer.from(hasher.hash(`flagpole:${PURPOSE}:${VERSION}`), 'hex');
  }

  /** A ticket for `claims`, expiring at the end of the window after the current one. */
  issue(claims: Omit<TicketClaims, 'expires'>, now = Date.now()): string {
    const window = Math.max(1, Math.floor(this.lifetimeSeconds / 2));
    const expires = (Math.floor(now / 1000 / window) + 2) * window;
    const payload = Buffer.from(JSON.stringify({ p: PURPOSE, t: claims.token, s: claims.scope, x: expires })).toString('base64url');
    return `${VERSION}.${payload}.${this.mac(payload)}`;
  }

  /** The claims of a valid ticket, or why it is refused. */
  verify(ticket: string | undefined, now = Date.now()): TicketClaims | TicketRefusal {
    if (ticket === undefined || ticket.length > MAX_TICKET_LENGTH) return 'malformed';
    const parts = ticket.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION || !/^[A-Za-z0-9_-]+$/.test(parts[1]!) || !/^[A-Za-z0-9_-]{43}$/.test(parts[2]!)) return 'malformed';
    const expected = Buffer.from(this.mac(parts[1]!), 'base64url');
    const given = Buffer.from(parts[2]!, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
    const claims = readPayload(parts[1]!);
    if (!claims) return 'malformed';
    if (claims.expires * 1000 <= now) return 'expired';
    return claims;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.#key).update(`${VERSION}.${payload}`).digest('base64url');
  }

  toJSON(): string {
    return '[redacted]';
  }
}

/** The claims of a payload this installation signed (checked anyway: a signed payload is still parsed defensively). */
function readPayload(payload: string): TicketClaims | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { p, t, s, x } = raw as Record<string, unknown>;
  if (p !== PURPOSE || (t !== null && typeof t !== 'string') || typeof s !== 'string' || typeof x !== 'number') return undefined;
  return { token: t, scope: s, expires: x };
}

/**
 * A short digest of a scope (projects in order, environment): a ticket names it so that a token whose scope is
 * not the one the ticket was issued for is refused.
 *
 * @example scopeFingerprint(['default'], 'development') // 22 base64url characters
 */
export function scopeFingerprint(projects: readonly string[] | '*', environment: string): string {
  return createHash('sha256').update(JSON.stringify([projects === '*' ? '*' : [...projects].sort(), environment])).digest('base64url').slice(0, 22);
}
