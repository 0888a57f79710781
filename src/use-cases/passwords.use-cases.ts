/** Users' passwords (README "Console"): set by an admin, changed by their owner; stored only as a hash. */
import type { Registry } from '../actors/registry.js';
import { hashPassword, passwordProblem } from '../auth/passwords.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { fail, failAt } from '../domain/errors.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import type { User } from '../domain/service-state.js';
import { endSessionsOfUser } from './sessions.use-cases.js';

/**
 * The stored form of a password the user `names` (username, email) may use, or the 400 saying why not.
 *
 * @example const hash = await acceptablePasswordHash('s3cret-enough', ['ann']); if (!hash.ok) return hash;
 */
export async function acceptablePasswordHash(password: string, names: readonly (string | null)[]): Promise<Result<string>> {
  const problem = passwordProblem(password, names);
  // Worded as the schemas' messages are (`src/schemas/issues.ts`): the property, then the rule.
  if (problem !== null) return failed(failAt('ValidationError', 'password', problem, { details: [{ message: `"password": ${problem}`, path: 'password' }] }));
  return ok(await hashPassword(password));
}

/**
 * Gives user `userId` a new password (admins: `POST /api/admin/user-admin/:userId/change-password`). Every
 * session signed in with the old one ends; personal tokens keep working.
 */
export async function setPassword(registry: Registry, input: { userId: number; password: string }, principal: Principal): Promise<Result<null>> {
  const user: User | undefined = registry.service.state.users[String(input.userId)];
  if (!user) return failed(fail('NotFoundError', `Could not find user with id ${input.userId}`));
  const hash = await acceptablePasswordHash(input.password, [user.username, user.email]);
  if (!hash.ok) return hash;
  const set = fromDecision(await registry.service.send({ type: 'user.password.set', userId: user.id, passwordHash: hash.value }, principalLabel(principal)));
  if (!set.ok) return set;
  await endSessionsOfUser(registry, user.id);
  return ok(null);
}

/**
 * The caller's own new password (`POST /api/admin/user/change-password`): only a user has one; an admin
 * token belongs to nobody.
 */
export function changeOwnPassword(registry: Registry, input: { password: string }, principal: Principal): Promise<Result<null>> {
  if (principal.kind !== 'user') {
    return Promise.resolve(failed(fail('ValidationError', 'Only a user has a password of their own: sign in as that user (or use their personal token); an admin sets a user\'s password with POST /api/admin/user-admin/:userId/change-password')));
  }
  return setPassword(registry, { userId: principal.user.id, password: input.password }, principal);
}
