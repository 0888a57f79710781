/**
 * What every way of signing in shares (`POST /login`, `POST /login/token`, `POST /auth/simple/login`): the
 * failure limits per username and per address (docs/limits.md "Sign-in"), and the session handed to the
 * browser once the credentials are good.
 */
import type { Context } from 'hono';
import type { Result } from '../../domain/result.js';
import { startSession, type SignedIn } from '../../use-cases/sessions.use-cases.js';
import { setResponseHeader } from '../answer.js';
import type { AppDeps, AppEnv } from '../route.js';
import { peerAddress } from '../routes/frontend.routes.js';
import { setSessionCookie } from './cookies.js';

/**
 * Runs one sign-in attempt unless this username or address has failed too often this minute (then a
 * `TooManyRequests` failure with `Retry-After`, without checking anything); a failed attempt counts against both.
 */
export async function attemptSignIn(c: Context<AppEnv>, deps: AppDeps, username: string | undefined, attempt: () => Promise<Result<SignedIn>>): Promise<Result<SignedIn>> {
  const { byUser, byAddress } = deps.console.loginFailures;
  const address = peerAddress(c) ?? 'in-process';
  const user = username?.trim().toLowerCase() || undefined;
  const wait = Math.max(byAddress.spent(address), user === undefined ? 0 : byUser.spent(user));
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    setResponseHeader(c, 'Retry-After', String(seconds));
    return { ok: false, error: { kind: 'TooManyRequests', message: `Too many failed sign-ins; try again in ${seconds} s` } };
  }
  const result = await attempt();
  if (!result.ok) {
    byAddress.take(address, 1);
    if (user !== undefined) byUser.take(user, 1);
  }
  return result;
}

/** Starts a session for who signed in and hands its id to the browser in the session cookie. */
export async function openSession(c: Context<AppEnv>, deps: AppDeps, who: SignedIn): Promise<void> {
  const id = await startSession(deps.registry, deps.tokenHasher, who);
  setSessionCookie(c, deps, id);
}
