/**
 * Project membership (docs/admin-contract.md §4.17 to §4.19). Every change runs in the registry's access mailbox, as
 * user deletion does, so a grant can never land on a user being deleted; the at-least-one-Owner rule is then decided
 * in the project's own mailbox.
 */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import { about, fail, failAt, type DomainError } from '../domain/errors.js';
import { ROLES } from '../domain/roles.js';
import type { ServiceState } from '../domain/service-state.js';
import { failed, type Result } from '../domain/result.js';
import { sendToProject } from './send-command.js';

const PROJECT_ROLES = ROLES.filter((r) => r.type === 'project');

/** A membership a request names. */
export interface MembershipInput {
  projectId: string;
  userId: number;
  roleId: number;
}

/** The user exists (404), the role exists (404) and is a project role (400 naming `roleId`). */
function checkGrant(service: ServiceState, userId: number, roleId: number): DomainError | null {
  if (!service.users[String(userId)]) return fail('NotFoundError', `Could not find user with id ${userId}`);
  const role = ROLES.find((r) => r.id === roleId);
  if (!role) return about('roleId', fail('NotFoundError', `Could not find role with id ${roleId}`));
  if (role.type !== 'project') {
    return failAt('ValidationError', 'roleId', `must be a project role (${PROJECT_ROLES.map((r) => `${r.id} ${r.name}`).join(', ')}), got ${roleId}, the root role ${role.name}`);
  }
  return null;
}

function membership(type: 'member.add' | 'member.change' | 'member.remove') {
  return (registry: Registry, input: MembershipInput, principal: Principal): Promise<Result<null>> =>
    registry.access.run(async () => {
      const error = checkGrant(registry.service.state, input.userId, input.roleId);
      if (error) return failed(error);
      return sendToProject(registry, input.projectId, { type, userId: input.userId, roleId: input.roleId }, principal);
    });
}

/** Adds a user to the project with a role (400 `msg` when they already have one; docs/admin-contract.md §4.17). */
export const grantMembership = membership('member.add');
/** Changes a member's role; a user not in the project is left alone (docs/admin-contract.md §4.18). */
export const changeMembership = membership('member.change');
/** Removes a user from the project; they must hold the role named (docs/admin-contract.md §4.19). */
export const removeMembership = membership('member.remove');
