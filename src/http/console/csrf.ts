/**
 * Cross-site request forgery: every state-changing console request must come from a page of this origin and
 * carry the token of its session. Three checks, any one failing is a 403 before anything changes:
 * 1. the cookie is `SameSite=Strict` (a cross-site request carries none: `cookies.ts`);
 * 2. `Origin` (or, when absent, `Referer`) is this request's own origin;
 * 3. the CSRF token, sent as the `_csrf` form field or the `X-CSRF-Token` header (htmx), is the HMAC of the
 *    session id (`sessionCsrfToken`); before a session exists, the HMAC of the nonce in the `flagpole-login`
 *    cookie (a signed double submit).
 */
import type { Context } from 'hono';
import { loginCsrfToken, sameToken, sessionCsrfToken } from '../../auth/session-keys.js';
import { apiError } from '../errors.js';
import type { AppDeps, AppEnv, Step } from '../route.js';
import { loginNonceOf, overTls } from './cookies.js';

const REFUSED = 'This form was sent from another site or has expired: reload the page and try again';

/** This request's own origin, as the browser names it (`https` behind a TLS proxy, see `CONSOLE_SECURE_COOKIES`). */
export function ownOrigin(c: Context, deps: AppDeps): string {
  const host = c.req.header('host') ?? new URL(c.req.url).host;
  return `${overTls(c, deps) ? 'https' : 'http'}://${host}`;
}

/** Whether the request names this origin as where it came from; `unnamed`: the answer when it names none. */
function sameOrigin(c: Context, deps: AppDeps, unnamed = false): boolean {
  const own = ownOrigin(c, deps);
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin === own;
  const referer = c.req.header('referer');
  if (referer === undefined) return unnamed;
  try {
    return new URL(referer).origin === own;
  } catch {
    return false;
  }
}

/** The token the request carries: the `X-CSRF-Token` header, else the form's `_csrf` field. */
const sentToken = (c: Context<AppEnv>): string | undefined => c.req.header('x-csrf-token') ?? c.get('form')?.['_csrf'];

/** The token a session's pages carry, or the sign-in forms' one for `nonce`. */
export function expectedToken(c: Context<AppEnv>, deps: AppDeps, mode: 'session' | 'pre-session'): string | undefined {
  if (mode === 'session') {
    const session = c.get('session');
    return session ? sessionCsrfToken(deps.tokenHasher, session.id) : undefined;
  }
  const nonce = loginNonceOf(c);
  return nonce ? loginCsrfToken(deps.tokenHasher, nonce) : undefined;
}

/**
 * The CSRF step of a state-changing request, after its body was read. With `AUTH_TYPE=none` a session route
 * has no session and checks the origin only.
 */
export function csrfStep(mode: 'session' | 'pre-session' | 'origin', deps: AppDeps): Step {
  return (c) => {
    if (!sameOrigin(c, deps, mode === 'origin')) throw apiError('NoAccessError', REFUSED);
    if (mode === 'origin') return;
    if (mode === 'session' && deps.config.authType === 'none') return;
    const expected = expectedToken(c, deps, mode);
    if (expected === undefined || !sameToken(sentToken(c), expected)) throw apiError('NoAccessError', REFUSED);
  };
}
