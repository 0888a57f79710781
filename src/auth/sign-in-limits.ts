/**
 * The limits every check of a credential runs under (docs/limits.md "Sign-in"): the console's sign-in forms,
 * Unleash's `POST /auth/simple/login`, and the current password asked before a password changes
 * (`/account/password`, `POST /api/admin/user/change-password`). Failures are counted per peer address and per
 * account; password checks (scrypt) wait for one of a few places so a burst of them cannot hold every thread of
 * libuv's pool that LevelDB's writes need. Free of HTTP: `src/http/sign-in-limits.ts` adapts it to a request.
 */
import type { Charge, WindowBudget } from '../actors/window-budget.js';
import { fail } from '../domain/errors.js';
import { failed, type Result } from '../domain/result.js';
import { GATE_FULL, type WorkGate } from './work-gate.js';

/** The limits of one app, built once (`AppDeps.signInLimits`). */
export interface SignInLimits {
  /** Failed checks per minute per account: the user a name resolves to (`signInAccount`); across every node (`registry.budget`). */
  byAccount: WindowBudget;
  /** Failed checks per minute per peer address; across every node. */
  byAddress: WindowBudget;
  /** Password checks running and waiting at once (`PASSWORD_CHECKS_RUNNING`, `PASSWORD_CHECKS_WAITING`). */
  passwordChecks: WorkGate;
}

/**
 * What is being checked: from where, the account failures count against (none for a token), whether a password
 * (scrypt). `address` and `account` are the keys the budgets count under (the caller's keyed hashes of them).
 */
export interface CheckedCredential {
  address: string;
  account: string | undefined;
  password: boolean;
}

/** The outcome of a limited check: its own, or a refusal with the seconds to wait (`retryAfter`). */
export type LimitedResult<T> = Result<T> & { retryAfter?: number };

/**
 * Runs one check of a credential within the limits:
 * 1. one attempt is charged to the address and the account **before** the check (requests sent together cannot
 *    all pass a budget that no failure has reached yet; on several nodes the budgets are counted in the
 *    database, one for all of them); when either has none left: `TooManyRequests` with `retryAfter`, nothing
 *    checked, nothing charged; when the database cannot count them: `Unavailable` (503, `retryAfter: 5`),
 *    nothing checked;
 * 2. a password check waits for a place among the gate's running ones; with its line full: `Unavailable` (503)
 *    with `retryAfter: 1`, the charge given back;
 * 3. the attempt; unless it failed on a wrong credential (`AuthenticationRequired`), the charge is given back.
 *
 * @example const result = await withinSignInLimits(limits, { address, account: 'user:3', password: true }, () => checkPassword(registry, body));
 */
export async function withinSignInLimits<T>(limits: SignInLimits, checked: CheckedCredential, attempt: () => Promise<Result<T>>): Promise<LimitedResult<T>> {
  const { byAccount, byAddress, passwordChecks } = limits;
  const { address, account } = checked;
  const byAddressCharge = await byAddress.take(address, 1);
  let charge = byAddressCharge;
  let byAccountCharge: Charge | undefined;
  if (charge.kind === 'taken' && account !== undefined) {
    byAccountCharge = await byAccount.take(account, 1);
    charge = byAccountCharge;
    if (charge.kind !== 'taken') await byAddress.giveBack(address, 1, byAddressCharge);
  }
  if (charge.kind === 'unavailable') {
    return { ...failed(fail('Unavailable', 'Sign-in attempts cannot be counted: the database is unreachable; try again in a moment')), retryAfter: 5 };
  }
  if (charge.kind === 'spent') {
    const seconds = Math.ceil(charge.waitMs / 1000);
    return { ...failed(fail('TooManyRequests', `Too many failed sign-ins; try again in ${seconds} s`)), retryAfter: seconds };
  }
  const giveBack = async () => {
    await byAddress.giveBack(address, 1, byAddressCharge);
    if (account !== undefined && byAccountCharge) await byAccount.giveBack(account, 1, byAccountCharge);
  };
  const result = checked.password ? await passwordChecks.run(attempt) : await attempt();
  if (result === GATE_FULL) {
    await giveBack();
    return { ...failed(fail('Unavailable', 'Too many passwords are being checked at once on this server; try again in a moment')), retryAfter: 1 };
  }
  if (result.ok || result.error.kind !== 'AuthenticationRequired') await giveBack();
  return result;
}
