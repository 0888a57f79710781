/**
 * The limits every check of a credential runs under (docs/limits.md "Sign-in"): the console's sign-in forms,
 * Unleash's `POST /auth/simple/login`, and the current password asked before a password changes
 * (`/account/password`, `POST /api/admin/user/change-password`). Failures are counted per peer address and per
 * account; password checks (scrypt) wait for one of a few places so a burst of them cannot hold every thread of
 * libuv's pool that LevelDB's writes need. Free of HTTP: `src/http/sign-in-limits.ts` adapts it to a request.
 */
import { fail } from '../domain/errors.js';
import { failed, type Result } from '../domain/result.js';
import { GATE_FULL, type WorkGate } from './work-gate.js';

/** Attempts counted per key over windows of time (`AddressBudget`): 0 when granted, else the ms to wait. */
export interface AttemptBudget {
  take(key: string, cost: number, now?: number): number;
  giveBack(key: string, cost: number, takenAt: number, now?: number): void;
}

/** The limits of one app, built once (`AppDeps.signInLimits`). */
export interface SignInLimits {
  /** Failed checks per minute per account: the user a name resolves to (`signInAccount`). */
  byAccount: AttemptBudget;
  /** Failed checks per minute per peer address. */
  byAddress: AttemptBudget;
  /** Password checks running and waiting at once (`PASSWORD_CHECKS_RUNNING`, `PASSWORD_CHECKS_WAITING`). */
  passwordChecks: WorkGate;
}

/** What is being checked: from where, the account failures count against (none for a token), whether a password (scrypt). */
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
 *    all pass a budget that no failure has reached yet); when either has none left: `TooManyRequests` with
 *    `retryAfter`, nothing checked, nothing charged;
 * 2. a password check waits for a place among the gate's running ones; with its line full: `Unavailable` (503)
 *    with `retryAfter: 1`, the charge given back;
 * 3. the attempt; unless it failed on a wrong credential (`AuthenticationRequired`), the charge is given back.
 *
 * @example const result = await withinSignInLimits(limits, { address, account: 'user:3', password: true }, () => checkPassword(registry, body));
 */
export async function withinSignInLimits<T>(limits: SignInLimits, checked: CheckedCredential, attempt: () => Promise<Result<T>>): Promise<LimitedResult<T>> {
  const { byAccount, byAddress, passwordChecks } = limits;
  const { address, account } = checked;
  const at = Date.now();
  let wait = byAddress.take(address, 1, at);
  if (wait === 0 && account !== undefined) {
    wait = byAccount.take(account, 1, at);
    if (wait > 0) byAddress.giveBack(address, 1, at);
  }
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    return { ...failed(fail('TooManyRequests', `Too many failed sign-ins; try again in ${seconds} s`)), retryAfter: seconds };
  }
  const giveBack = () => {
    byAddress.giveBack(address, 1, at);
    if (account !== undefined) byAccount.giveBack(account, 1, at);
  };
  const result = checked.password ? await passwordChecks.run(attempt) : await attempt();
  if (result === GATE_FULL) {
    giveBack();
    return { ...failed(fail('Unavailable', 'Too many passwords are being checked at once on this server; try again in a moment')), retryAfter: 1 };
  }
  if (result.ok || result.error.kind !== 'AuthenticationRequired') giveBack();
  return result;
}
