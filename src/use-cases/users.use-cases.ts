/** Users (docs/api-decisions.md "Projects, environments, users, roles, tokens"). */
import type { ProjectActor } from '../actors/actor-types.js';
import type { Registry } from '../actors/registry.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { fail } from '../domain/errors.js';
import { PROJECT_OWNER, ROOT_ADMIN } from '../domain/roles.js';
import type { User } from '../domain/service-state.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import { acceptablePasswordHash } from './passwords.use-cases.js';
import { suspendSchedulesOf } from './change-request-schedules.use-cases.js';
import { endSessionsOfUser } from './sessions.use-cases.js';

/** Creates a user, with a first password when `password` is given (hashed here, never stored as sent). */
export async function createUser(registry: Registry, input: Omit<User, 'id' | 'createdAt'> & { password?: string | undefined }, principal: Principal): Promise<Result<User>> {
  const { password, ...user } = input;
  const hash = password === undefined ? undefined : await acceptablePasswordHash(password, [user.username, user.email], registry.passwordWork);
  if (hash && !hash.ok) return hash;
  return fromDecision(await registry.service.send({ type: 'user.create', user, passwordHash: hash?.value }, principalLabel(principal)));
}

/**
 * Changes a user's name, email and/or root role (Unleash's `PUT /api/admin/user-admin/:id`); the mailbox refuses
 * to take the Admin role from the last root Admin.
 */
export async function updateUser(registry: Registry, input: { userId: number; name?: string | null | undefined; email?: string | null | undefined; rootRole?: number | undefined }, principal: Principal): Promise<Result<User>> {
  return fromDecision(await registry.service.send({ type: 'user.update', ...input }, principalLabel(principal)));
}

/** Projects where `userId` is the only Owner: deleting the user would leave them without one. */
function soleOwnerOf(registry: Registry, userId: number): string[] {
  const key = String(userId);
  return registry.projectIds().filter((id) => {
    const members = registry.project(id)!.state.meta.members;
    return members[key] === PROJECT_OWNER && Object.values(members).filter((r) => r === PROJECT_OWNER).length === 1;
  });
}

const soleOwner = (userId: number, projects: string[]) => fail(
  'ValidationError',
  `User ${userId} is the only Owner of project${projects.length > 1 ? 's' : ''} ${projects.map((p) => `"${p}"`).join(', ')}; give ${projects.length > 1 ? 'them' : 'it'} another Owner first`,
);

/**
 * Deletes a user with their project memberships and personal tokens, refused while they are the only Owner
 * of a project. It runs in the access mailbox, so no membership change interleaves: the sole-Owner check
 * holds while the user leaves every project, then the user is deleted. Memberships go first, so a crash in
 * between leaves a user with fewer memberships, never a member that does not exist. Should a project refuse
 * the purge anyway (changed outside the mailbox), the purges already made are undone and nothing is deleted.
 * The pending schedules of change requests the user set are suspended after, as Unleash does.
 */
export function deleteUser(registry: Registry, input: { userId: number }, principal: Principal): Promise<Result<null>> {
  const { userId } = input;
  const by = principalLabel(principal);
  return registry.access.run(async () => {
    const users = registry.service.state.users;
    const user = users[String(userId)];
    if (!user) return failed(fail('NotFoundError', `Could not find user with id ${userId}`));
    // Checked before anything is purged, so a refused delete changes nothing; the service mailbox decides it again.
    if (user.rootRole === ROOT_ADMIN && !Object.values(users).some((u) => u.id !== userId && u.rootRole === ROOT_ADMIN)) {
      return failed(fail('ValidationError', `User ${userId} is the last root Admin; create another Admin before deleting this one`));
    }
    const sole = soleOwnerOf(registry, userId);
    if (sole.length > 0) return failed(soleOwner(userId, sole));
    const purged: { actor: ProjectActor; roleId: number }[] = [];
    const undo = async () => {
      for (const { actor, roleId } of purged) await actor.send({ type: 'member.add', userId, roleId }, by);
    };
    for (const id of registry.projectIds()) {
      const actor = registry.project(id)!;
      const roleId = actor.state.meta.members[String(userId)];
      if (roleId === undefined) continue;
      const decision = await actor.send({ type: 'member.purge', userId }, by);
      if (decision.ok) {
        purged.push({ actor, roleId });
        continue;
      }
      await undo();
      return failed(soleOwner(userId, [id]));
    }
    const deleted = await registry.service.send({ type: 'user.delete', userId }, by);
    if (deleted.ok) {
      await endSessionsOfUser(registry, userId);
      // As Unleash: the schedules they set wait for someone else now.
      await suspendSchedulesOf(registry, userId, by);
      return ok(null);
    }
    await undo();
    return failed(deleted.error);
  });
}
