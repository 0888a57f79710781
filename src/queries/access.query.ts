/** Reads of the access model (roles, users, members) from the committed state, in the shapes the views take. */
import type { Registry } from '../actors/registry.js';
import { fail } from '../domain/errors.js';
import { ROLES, type Role } from '../domain/roles.js';
import type { StoredToken, User } from '../domain/service-state.js';
import { failed, ok, type Result } from '../domain/result.js';

/** The six built-in roles, in id order. */
export const allRoles = (): readonly Role[] => ROLES;

/** The built-in role with this id; 404 when there is none. */
export function roleById(roleId: number): Result<Role> {
  const role = ROLES.find((r) => r.id === roleId);
  return role ? ok(role) : failed(fail('NotFoundError', `Could not find role with id ${roleId}`));
}

/** The project roles (4 Owner, 5 Member, 6 Reader). */
export const projectRoles = (): Role[] => ROLES.filter((r) => r.type === 'project');

/** The root roles (1 Admin, 2 Editor, 3 Viewer). */
export const rootRoles = (): Role[] => ROLES.filter((r) => r.type === 'root');

/** Every user, by id. */
export const allUsers = (registry: Registry): User[] => Object.values(registry.service.state.users).sort((a, b) => a.id - b.id);

/** The user with this id; 404 when there is none. */
export function userById(registry: Registry, userId: number): Result<User> {
  const user = registry.service.state.users[String(userId)];
  return user ? ok(user) : failed(fail('NotFoundError', `Could not find user with id ${userId}`));
}

/** A project's members with their role, by user id (a user deleted meanwhile shows with null fields). */
export function membersOf(registry: Registry, projectId: string): { id: number; user: User | undefined; roleId: number }[] {
  const users = registry.service.state.users;
  const members = registry.project(projectId)?.state.meta.members ?? {};
  return Object.entries(members).map(([id, roleId]) => ({ id: Number(id), user: users[id], roleId })).sort((a, b) => a.id - b.id);
}

const byCreation = (a: StoredToken, b: StoredToken) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** Admin and client tokens, oldest first. */
export const apiTokens = (registry: Registry): StoredToken[] =>
  Object.values(registry.service.state.tokens).filter((t) => t.type !== 'personal').sort(byCreation);

/** A user's personal tokens, oldest first. */
export const personalTokens = (registry: Registry, userId: number): StoredToken[] =>
  Object.values(registry.service.state.tokens).filter((t) => t.userId === userId).sort(byCreation);
