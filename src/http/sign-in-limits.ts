/**
 * The limits every check of a credential runs under (docs/limits.md "Sign-in"): the sign-in forms, Unleash's
 * `POST /auth/simple/login`, and the current password asked before a password changes (`/account/password`,
 * `POST /api/admin/user/change-password`). Failures are counted per peer address and per account; password
 * checks (scrypt) wait for one of a few places (`PASSWORD_CHECKS`) so a burst of them cannot hold every thread
 * of libuv's pool that LevelDB's writes need.
 */
import type { Context } from 'hono';
import { GATE_FULL } from '../auth/work-gate.js';
import { fail } from '../domain/errors.js';
import { failed, type Result } from '../domain/result.js';
import { setResponseHeader } from './answer.js';
import type { AppDeps, AppEnv } from './route.js';
import { peerAddress } from './routes/frontend.routes.js';

/** What is being checked: the account failures count against (none for a token), and whether it is a password (scrypt). */
export interface CheckedCredential {
  account: string | undefined;
  password: boolean;
}

/**
 * Runs one check of a credential within the limits:
 * 1. one attempt is charged to the address and the account **before** the check (requests sent together cannot
 *    all pass a budget that no failure has reached yet); when either has none left: `TooManyRequests` with
 *    `Retry-After`, nothing checked, nothing charged;
 * 2. a password check waits for a place among `PASSWORD_CHECKS.running`; with `PASSWORD_CHECKS.waiting` already
 *    waiting: `Unavailable` (503) with `Retry-After: 1`, the charge given back;
 * 3. the attempt; unless it failed on a wrong credential (`AuthenticationRequired`), the charge is given back.
 *
 * @example const result = await withinSignInLimits(c, deps, { account: 'user:3', password: true }, () => checkPassword(registry, body));
 */
export async function withinSignInLimits<T>(c: Context<AppEnv>, deps: AppDeps, checked: CheckedCredential, attempt: () => Promise<Result<T>>): Promise<Result<T>> {
  const { loginFailures: { byUser, byAddress }, passwordChecks } = deps.console;
  // In-process requests (tests through `app.request`) have no peer: they share one budget.
  const address = peerAddress(c) ?? 'in-process';
  const { account } = checked;
  const at = Date.now();
  let wait = byAddress.take(address, 1, at);
  if (wait === 0 && account !== undefined) {
    wait = byUser.take(account, 1, at);
    if (wait > 0) byAddress.giveBack(address, 1, at);
  }
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    setResponseHeader(c, 'Retry-After', String(seconds));
    return failed(fail('TooManyRequests', `Too many failed sign-ins; try again in ${seconds} s`));
  }
  const giveBack = () => {
    byAddress.giveBack(address, 1, at);
    if (account !== undefined) byUser.giveBack(account, 1, at);
  };
  const result = checked.password ? await passwordChecks.run(attempt) : await attempt();
  if (result === GATE_FULL) {
    giveBack();
    setResponseHeader(c, 'Retry-After', '1');
    return failed(fail('Unavailable', 'Too many passwords are being checked at once on this server; try again in a moment'));
  }
  if (result.ok || result.error.kind !== 'AuthenticationRequired') giveBack();
  return result;
}
