/** Users' passwords (README "Console"): set by an admin, changed by their owner; stored only as a hash. */
import type { Registry } from '../actors/registry.js';
import { hashPassword, passwordProblem, verifyPassword, type PasswordWork } from '../auth/passwords.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { fail, failAt } from '../domain/errors.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import type { User } from '../domain/service-state.js';
import { endSessionsOfUser } from './sessions.use-cases.js';

/**
 * The stored form of a password the user `names` (username, email) may use, or the 400 saying why not; `work`:
 * the registry's (`registry.passwordWork`, the default in production).
 *
 * @example const hash = await acceptablePasswordHash('s3cret-enough', ['ann'], registry.passwordWork); if (!hash.ok) return hash;
 */
export async function acceptablePasswordHash(password: string, names: readonly (string | null)[], work: PasswordWork | undefined): Promise<Result<string>> {
  const problem = passwordProblem(password, names);
  // Worded as the schemas' messages are (`src/schemas/issues.ts`): the property, then the rule.
  if (problem !== null) return failed(failAt('ValidationError', 'password', problem, { details: [{ message: `"password": ${problem}`, path: 'password' }] }));
  return ok(await hashPassword(password, work));
}

/**
 * Gives user `userId` a new password (admins: `POST /api/admin/user-admin/:userId/change-password`). Every
 * session signed in with the old one ends; personal tokens keep working.
 */
export async function setPassword(registry: Registry, input: { userId: number; password: string }, principal: Principal): Promise<Result<null>> {
  const user: User | undefined = registry.service.state.users[String(input.userId)];
  if (!user) return failed(fail('NotFoundError', `Could not find user with id ${input.userId}`));
  const hash = await acceptablePasswordHash(input.password, [user.username, user.email], registry.passwordWork);
  if (!hash.ok) return hash;
  const set = fromDecision(await registry.service.send({ type: 'user.password.set', userId: user.id, passwordHash: hash.value }, principalLabel(principal)));
  if (!set.ok) return set;
  await endSessionsOfUser(registry, user.id);
  return ok(null);
}

/** The refusal of a current password that is not the user's (401, as Unleash's `PasswordMismatch`). */
export const WRONG_OLD_PASSWORD = '"oldPassword" is not your current password';

/**
 * The caller's own new password (`POST /api/admin/user/change-password`, the console's `/account/password`):
 * only a user has one; an admin token belongs to nobody. A user who has a password gives it as `oldPassword`
 * first, whoever asks (a session or a personal token): a leaked token must not turn into a known password.
 */
export async function changeOwnPassword(registry: Registry, input: { password: string; oldPassword?: string | undefined }, principal: Principal): Promise<Result<null>> {
  if (principal.kind !== 'user') {
    return failed(fail('ValidationError', 'Only a user has a password of their own: sign in as that user (or use their personal token); an admin sets a user\'s password with POST /api/admin/user-admin/:userId/change-password'));
  }
  const id = String(principal.user.id);
  const stored = registry.service.state.passwords[id];
  if (stored !== undefined) {
    if (input.oldPassword === undefined) {
      const message = '"oldPassword" is required: your current password, to set a new one';
      return failed(fail('ValidationError', message, [{ message }]));
    }
    // Read again after scrypt: the password may have changed while it ran.
    const matches = await verifyPassword(input.oldPassword, stored);
    if (!matches || registry.service.state.passwords[id] !== stored) return failed(fail('AuthenticationRequired', WRONG_OLD_PASSWORD));
  }
  return setPassword(registry, { userId: principal.user.id, password: input.password }, principal);
}
