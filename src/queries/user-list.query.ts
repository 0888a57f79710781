/** The console's user list (`/admin/users`): users found by name, username or email, paged, with their last activity. */
import type { Registry } from '../actors/registry.js';
import type { User } from '../domain/service-state.js';
import { ok, type Result } from '../domain/result.js';
import { allUsers, userById } from './access.query.js';
import { pageOf, type ListPage } from './paging.js';

/** Users on one page of the list. */
export const USERS_PER_PAGE = 50;

/** A user as the list shows them. */
export interface UserRow {
  user: User;
  /** Whether they have a password (else they sign in with a token, or not yet: a link was made or is due). */
  hasPassword: boolean;
  /** Whether an unexpired one-time password link of theirs waits to be used. */
  linkPending: boolean;
  /** The last use of a console session of theirs the server still holds (ISO), or null when none is held. */
  lastActive: string | null;
}

/** The rows of `users`: whether each has a password or a link waiting, and their latest session use. */
function rowsOf(registry: Registry, users: User[], now: number): UserRow[] {
  const state = registry.service.state;
  const shown = new Set(users.map((u) => u.id));
  const lastUse = new Map<number, number>();
  for (const record of registry.sessions.records()) {
    const userId = record.userId ?? (record.tokenHash !== null && Object.hasOwn(state.tokens, record.tokenHash) ? state.tokens[record.tokenHash]!.userId : null);
    if (userId === null || !shown.has(userId)) continue;
    lastUse.set(userId, Math.max(lastUse.get(userId) ?? 0, record.lastUsedAt));
  }
  const links = new Set(Object.values(state.passwordLinks ?? {}).filter((l) => Date.parse(l.expiresAt) > now).map((l) => l.userId));
  return users.map((user) => {
    const used = lastUse.get(user.id);
    return { user, hasPassword: Object.hasOwn(state.passwords, String(user.id)), linkPending: links.has(user.id), lastActive: used === undefined ? null : new Date(used).toISOString() };
  });
}

/** The users matching `q` (part of a name, username or email, any case), by id, on page `page`. */
export function userList(registry: Registry, input: { q?: string | undefined; page?: number | undefined }, now = Date.now()): ListPage<UserRow> {
  const q = input.q?.trim().toLowerCase() ?? '';
  const matches = q === '' ? allUsers(registry) : allUsers(registry).filter((u) =>
    [u.name, u.username, u.email].some((text) => text?.toLowerCase().includes(q)));
  const page = pageOf(matches, input.page ?? 1, USERS_PER_PAGE);
  return { ...page, rows: rowsOf(registry, page.rows, now) };
}

/** One user's row; 404 when there is no such user. */
export function userRow(registry: Registry, userId: number, now = Date.now()): Result<UserRow> {
  const user = userById(registry, userId);
  return user.ok ? ok(rowsOf(registry, [user.value], now)[0]!) : user;
}
