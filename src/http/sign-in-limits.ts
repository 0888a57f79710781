/**
 * The sign-in limits (`src/auth/sign-in-limits.ts`, docs/limits.md "Sign-in") for a request: its peer address,
 * and `Retry-After` on a refusal. Shared by the API (`POST /api/admin/user/change-password`) and the console
 * (its sign-in forms, `/account/password`, `POST /auth/simple/login`).
 */
import type { Context } from 'hono';
import { withinSignInLimits, type CheckedCredential } from '../auth/sign-in-limits.js';
import type { Result } from '../domain/result.js';
import { setResponseHeader } from './answers/answer.js';
import type { AppDeps, AppEnv } from './route.js';
import { peerAddress } from './routes/frontend.routes.js';

/**
 * Runs one check of a credential from this request within the app's sign-in limits.
 *
 * @example const result = await limitedCheck(c, deps, { account: 'user:3', password: true }, () => checkPassword(registry, body));
 */
export async function limitedCheck<T>(c: Context<AppEnv>, deps: AppDeps, checked: Omit<CheckedCredential, 'address'>, attempt: () => Promise<Result<T>>): Promise<Result<T>> {
  // In-process requests (tests through `app.request`) have no peer: they share one budget. Budgets count under
  // keyed hashes: a name typed on the sign-in form (a password, by mistake) is never stored as typed.
  const address = budgetKey(deps, `address:${peerAddress(c) ?? 'in-process'}`);
  const account = checked.account === undefined ? undefined : budgetKey(deps, `account:${checked.account}`);
  const { retryAfter, ...result } = await withinSignInLimits(deps.signInLimits, { ...checked, address, account }, attempt);
  if (retryAfter !== undefined) setResponseHeader(c, 'Retry-After', String(retryAfter));
  return result as Result<T>;
}

/** The key a budget counts `what` under: its keyed hash (the same on every node, which share the token key). */
const budgetKey = (deps: AppDeps, what: string): string => deps.tokenHasher.hash(`sign-in-budget:${what}`);
