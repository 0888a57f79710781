/**
 * The console's session: who a page request comes from (the session of its `flagpole-session` cookie, the step
 * that authenticates a page), and a new session handed to who signed in, through the sign-in use case that
 * limits failed attempts.
 */
import type { Context } from 'hono';
import type { SessionRecord } from '../../actors/session-store.js';
import type { Principal } from '../../auth/permissions.js';
import { passwordStamp, sessionKey } from '../../auth/session-keys.js';
import type { Result } from '../../domain/result.js';
import { apiError } from '../../http/errors.js';
import { principalOf } from '../../http/middleware/principal-of.js';
import type { AppEnv } from '../../http/route.js';
import { limitedCheck } from '../../http/sign-in-limits.js';
import { endSession, signInAccount, startSession, type SignedIn } from '../../use-cases/sessions.use-cases.js';
import type { ConsoleDeps, ConsoleEnv, ConsoleSession, ConsoleStep } from '../console-deps.js';
import { sessionIdOf, setSessionCookie } from './cookies.js';

const SIGN_IN = 'Sign in to use the console; your session has ended or never began';

/**
 * The caller of an `authentication: 'session'` route: the live session of the `flagpole-session` cookie, as
 * the user who signed in by password (`{kind: 'user', tokenName: 'session'}`) or as the token that signed in.
 * A session whose user is gone, whose password has changed or whose token was revoked or has expired ends
 * here. With `AUTH_TYPE=none` every request acts as an admin, as on the API. Sets `c.get('session')`.
 * Synchronous when this node holds the session; a promise when it is read from a store several nodes share
 * (a session begun or last used on another node).
 */
export function sessionCallerOf(c: Context<ConsoleEnv>, deps: ConsoleDeps): Principal | Promise<Principal> {
  if (deps.config.authType === 'none') return { kind: 'admin', name: 'auth-none' };
  const id = sessionIdOf(c);
  if (id === undefined) throw apiError('AuthenticationRequired', SIGN_IN);
  const key = sessionKey(deps.tokenHasher, id);
  const record = deps.registry.sessions.lookup(key);
  if (record instanceof Promise) return record.then((found) => callerOfRecord(c, deps, { id, key }, found));
  return callerOfRecord(c, deps, { id, key }, record);
}

/** The principal of session `record` (stored under `session.key`), or a 401 (ending a session whose principal is gone). */
function callerOfRecord(c: Context<ConsoleEnv>, deps: ConsoleDeps, session: ConsoleSession, record: SessionRecord | undefined): Principal {
  if (!record) throw apiError('AuthenticationRequired', SIGN_IN);
  const state = deps.registry.service.state;
  let principal: Principal | undefined;
  if (record.userId !== null) {
    const user = state.users[String(record.userId)];
    const hash = state.passwords[String(record.userId)];
    if (user && hash && record.passwordStamp === passwordStamp(deps.tokenHasher, hash)) principal = { kind: 'user', user, tokenName: 'session' };
  } else if (record.tokenHash !== null && Object.hasOwn(state.tokens, record.tokenHash)) {
    try {
      principal = principalOf(state.tokens[record.tokenHash], state);
    } catch {
      principal = undefined;
    }
  }
  if (!principal) {
    void endSession(deps.registry, session.key).catch(() => undefined);
    throw apiError('AuthenticationRequired', SIGN_IN);
  }
  c.set('session', session);
  return principal;
}

/**
 * The step that authenticates a page of a signed-in person (401: a redirect to `/login`, as a page's error);
 * it awaits only a session read from the store.
 */
export const sessionStep = (deps: ConsoleDeps): ConsoleStep => (c) => {
  const caller = sessionCallerOf(c, deps);
  if (!(caller instanceof Promise)) {
    c.set('principal', caller);
    return;
  }
  return caller.then((principal) => c.set('principal', principal));
};

/**
 * One check of a credential from this request (`check`: a password, a token, or a password change that asks
 * the current one) within the sign-in limits (`src/http/sign-in-limits.ts`): a password attempt counts against
 * the address and the account the name resolves to (username or email alike), a token attempt the address only.
 * On a store several nodes share, the node first catches up with what any node committed.
 */
export async function attemptSignIn<T>(c: Context<ConsoleEnv>, deps: ConsoleDeps, username: string | undefined, check: () => Promise<Result<T>>): Promise<Result<T>> {
  // Several nodes: a user, password or token set a moment ago on another node is known here first.
  await deps.registry.node.freshen(deps.config.nodes.catchUpWaitMs);
  const checked = { account: username === undefined ? undefined : signInAccount(deps.registry, username), password: username !== undefined };
  return limitedCheck(c as unknown as Context<AppEnv>, deps, checked, check);
}

/** Starts a session for who signed in and hands its id to the browser in the session cookie. */
export async function openSession(c: Context<ConsoleEnv>, deps: ConsoleDeps, who: SignedIn): Promise<void> {
  const id = await startSession(deps.registry, deps.tokenHasher, who);
  setSessionCookie(c, deps, id);
}
