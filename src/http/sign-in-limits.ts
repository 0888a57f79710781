/**
 * The limits every check of a credential runs under (docs/limits.md "Sign-in"): the sign-in forms, Unleash's
 * `POST /auth/simple/login`, and the current password asked before a password changes (`/account/password`,
 * `POST /api/admin/user/change-password`). Failures are counted per peer address and per account; password
 * checks (scrypt) wait for one of a few places (`PASSWORD_CHECKS`) so a burst of them cannot hold every thread
 * of libuv's pool that LevelDB's writes need.
 */
import type { Context } from 'hono';
import type { Charge } from '../actors/window-budget.js';
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
 *    all pass a budget that no failure has reached yet; on several nodes the budgets are counted in the
 *    database, one for all of them); when either has none left: `TooManyRequests` with `Retry-After`, nothing
 *    checked, nothing charged; when the database cannot count them: `Unavailable`, nothing checked;
 * 2. a password check waits for a place among `PASSWORD_CHECKS.running`; with `PASSWORD_CHECKS.waiting` already
 *    waiting: `Unavailable` (503) with `Retry-After: 1`, the charge given back;
 * 3. the attempt; unless it failed on a wrong credential (`AuthenticationRequired`), the charge is given back.
 *
 * @example const result = await withinSignInLimits(c, deps, { account: 'user:3', password: true }, () => checkPassword(registry, body));
 */
export async function withinSignInLimits<T>(c: Context<AppEnv>, deps: AppDeps, checked: CheckedCredential, attempt: () => Promise<Result<T>>): Promise<Result<T>> {
  const { loginFailures: { byUser, byAddress }, passwordChecks } = deps.console;
  // In-process requests (tests through `app.request`) have no peer: they share one budget. Budgets are kept
  // under keyed hashes: a name typed on the sign-in form (a password, by mistake) is never stored as typed.
  const address = budgetKey(deps, `address:${peerAddress(c) ?? 'in-process'}`);
  const account = checked.account === undefined ? undefined : budgetKey(deps, `account:${checked.account}`);
  const byAddressCharge = await byAddress.take(address, 1);
  let charge = byAddressCharge;
  let byUserCharge: Charge | undefined;
  if (charge.kind === 'taken' && account !== undefined) {
    byUserCharge = await byUser.take(account, 1);
    charge = byUserCharge;
    if (charge.kind !== 'taken') await byAddress.giveBack(address, 1, byAddressCharge);
  }
  if (charge.kind === 'unavailable') {
    setResponseHeader(c, 'Retry-After', '5');
    return failed(fail('Unavailable', 'Sign-in attempts cannot be counted: the database is unreachable; try again in a moment'));
  }
  if (charge.kind === 'spent') {
    const seconds = Math.ceil(charge.waitMs / 1000);
    setResponseHeader(c, 'Retry-After', String(seconds));
    return failed(fail('TooManyRequests', `Too many failed sign-ins; try again in ${seconds} s`));
  }
  const giveBack = async () => {
    await byAddress.giveBack(address, 1, byAddressCharge);
    if (account !== undefined && byUserCharge) await byUser.giveBack(account, 1, byUserCharge);
  };
  const result = checked.password ? await passwordChecks.run(attempt) : await attempt();
  if (result === GATE_FULL) {
    await giveBack();
    setResponseHeader(c, 'Retry-After', '1');
    return failed(fail('Unavailable', 'Too many passwords are being checked at once on this server; try again in a moment'));
  }
  if (result.ok || result.error.kind !== 'AuthenticationRequired') await giveBack();
  return result;
}

/** The key a budget counts `what` under: its keyed hash (the same on every node, which share the token key). */
const budgetKey = (deps: AppDeps, what: string): string => deps.tokenHasher.hash(`sign-in-budget:${what}`);
