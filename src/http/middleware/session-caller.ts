import type { Context } from 'hono';
import type { SessionRecord } from '../../actors/session-store.js';
import type { Principal } from '../../auth/permissions.js';
import { passwordStamp, sessionKey } from '../../auth/session-keys.js';
import { endSession } from '../../use-cases/sessions.use-cases.js';
import { sessionIdOf } from '../console/cookies.js';
import { apiError } from '../errors.js';
import type { AppDeps, AppEnv } from '../route.js';
import { principalOf } from './principal-of.js';

const SIGN_IN = 'Sign in to use the console; your session has ended or never began';

/**
 * The caller of an `authentication: 'session'` route: the live session of the `flagpole-session` cookie, as
 * the user who signed in by password (`{kind: 'user', tokenName: 'session'}`) or as the token that signed in.
 * A session whose user is gone, whose password has changed or whose token was revoked or has expired ends
 * here. With `AUTH_TYPE=none` every request acts as an admin, as on the API. Sets `c.get('session')`.
 * Synchronous when this node holds the session; a promise when it is read from a store several nodes share.
 */
export function sessionCallerOf(c: Context<AppEnv>, deps: AppDeps): Principal | Promise<Principal> {
  if (deps.config.authType === 'none') return { kind: 'admin', name: 'auth-none' };
  const id = sessionIdOf(c);
  if (id === undefined) throw apiError('AuthenticationRequired', SIGN_IN);
  const key = sessionKey(deps.tokenHasher, id);
  const record = deps.registry.sessions.lookup(key);
  if (record instanceof Promise) return record.then((found) => callerOfRecord(c, deps, { id, key }, found));
  return callerOfRecord(c, deps, { id, key }, record);
}

/** The principal of session `record` (stored under `session.key`), or a 401 (ending a session whose principal is gone). */
function callerOfRecord(c: Context<AppEnv>, deps: AppDeps, session: { id: string; key: string }, record: SessionRecord | undefined): Principal {
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
