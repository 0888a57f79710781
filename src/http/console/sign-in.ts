/**
 * What every way of signing in shares (`POST /login`, `POST /login/token`, `POST /auth/simple/login`): the
 * sign-in limits per account and per address (`../sign-in-limits.ts`, docs/limits.md "Sign-in"), and the session
 * handed to the browser once the credentials are good.
 */
import type { Context } from 'hono';
import type { Result } from '../../domain/result.js';
import { signInAccount, startSession, type SignedIn } from '../../use-cases/sessions.use-cases.js';
import type { AppDeps, AppEnv } from '../route.js';
import { withinSignInLimits } from '../sign-in-limits.js';
import { setSessionCookie } from './cookies.js';

/**
 * Runs one sign-in attempt within the sign-in limits (`withinSignInLimits`): a password attempt counts against
 * the address and the account the name resolves to (username or email alike), a token attempt the address only.
 */
export function attemptSignIn<T>(c: Context<AppEnv>, deps: AppDeps, username: string | undefined, attempt: () => Promise<Result<T>>): Promise<Result<T>> {
  return withinSignInLimits(c, deps, { account: username === undefined ? undefined : signInAccount(deps.registry, username), password: username !== undefined }, attempt);
}

/** Starts a session for who signed in and hands its id to the browser in the session cookie. */
export async function openSession(c: Context<AppEnv>, deps: AppDeps, who: SignedIn): Promise<void> {
  const id = await startSession(deps.registry, deps.tokenHasher, who);
  setSessionCookie(c, deps, id);
}
