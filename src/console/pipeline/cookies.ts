/**
 * The console's two cookies: `flagpole-session` (the session id) and `flagpole-login` (the nonce the sign-in
 * forms' CSRF token is bound to). Both `HttpOnly; SameSite=Strict; Path=/`, and `Secure` when the request came
 * over TLS or `CONSOLE_SECURE_COOKIES=true` says a TLS proxy is in front.
 */
import { randomBytes } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_ID } from '../../auth/session-keys.js';
import type { NodeBindings } from '../../http/answers/answer.js';
import type { ConsoleDeps } from '../console-deps.js';

export const SESSION_COOKIE = 'flagpole-session';
export const LOGIN_COOKIE = 'flagpole-login';

/** Whether the browser reached us over TLS, directly or (as configured) through a proxy. */
export function overTls(c: Context, deps: ConsoleDeps): boolean {
  if (deps.config.console.secureCookies) return true;
  const socket = (c.env as NodeBindings | undefined)?.incoming?.socket as TLSSocket | undefined;
  return socket?.encrypted === true || new URL(c.req.url).protocol === 'https:';
}

const options = (c: Context, deps: ConsoleDeps, maxAgeSeconds: number) => ({
  httpOnly: true, sameSite: 'Strict' as const, path: '/', secure: overTls(c, deps), maxAge: maxAgeSeconds,
});

/** The session id the browser sent, when it has the shape of one. */
export function sessionIdOf(c: Context): string | undefined {
  const id = getCookie(c, SESSION_COOKIE);
  return id !== undefined && SESSION_ID.test(id) ? id : undefined;
}

/** Hands the browser a new session's id, kept as long as the session can live. */
export function setSessionCookie(c: Context, deps: ConsoleDeps, sessionId: string): void {
  setCookie(c, SESSION_COOKIE, sessionId, options(c, deps, Math.ceil(deps.config.console.sessionMaxMs / 1000)));
}

/** Tells the browser to forget its session id. */
export function clearSessionCookie(c: Context, deps: ConsoleDeps): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: overTls(c, deps) });
}

/** The sign-in nonce the browser sent, if well-formed. */
export function loginNonceOf(c: Context): string | undefined {
  const nonce = getCookie(c, LOGIN_COOKIE);
  return nonce !== undefined && SESSION_ID.test(nonce) ? nonce : undefined;
}

/** The browser's sign-in nonce, or a new one set as its cookie (a day long: a sign-in page left open still works). */
export function ensureLoginNonce(c: Context, deps: ConsoleDeps): string {
  const sent = loginNonceOf(c);
  if (sent) return sent;
  const nonce = randomBytes(32).toString('base64url');
  setCookie(c, LOGIN_COOKIE, nonce, options(c, deps, 86_400));
  return nonce;
}
