/**
 * Who created flags (Unleash's flag-creator read model): the users who created the active flags of a project,
 * or of every project, by the creator each flag records (`Flag.createdBy`). Flags created by an API token or
 * before creators were recorded name no user, and a deleted user is no longer listed, as in Unleash.
 */
import type { Registry } from '../actors/registry.js';
import { creatorUserId } from '../domain/flag-creator.js';
import type { ProjectState } from '../domain/project-state.js';
import type { User } from '../domain/service-state.js';
import { ok, type Result } from '../domain/result.js';
import type { FlagCreatorsQuery } from '../schemas/flag-creators.schema.js';
import { perStateVersion } from './state-memo.js';

/** A flag creator as Unleash lists one. */
export interface FlagCreator {
  id: number;
  name: string;
}

/** The ids of the users who created the project's active flags, derived once per state version. */
const creatorIds = perStateVersion((state: ProjectState): ReadonlySet<number> => {
  const ids = new Set<number>();
  for (const flag of state.flags.values()) {
    const id = flag.archived ? undefined : creatorUserId(flag);
    if (id !== undefined) ids.add(id);
  }
  return ids;
});

/** The user's shown name, as Unleash falls back: name, else username, else email; null when none is set. */
export const shownName = (user: User): string | null => user.name || user.username || user.email || null;

/** Users by name (users without one last, as PostgreSQL sorts nulls), then id. */
const byName = (a: User, b: User): number =>
  a.name === b.name ? a.id - b.id : a.name === null ? 1 : b.name === null ? -1 : a.name.localeCompare(b.name) || a.id - b.id;

/** The existing users among `ids` that have a name to show, ordered by name, then id. */
function creatorsOf(registry: Registry, ids: Iterable<number>): { creator: FlagCreator; user: User }[] {
  const users = registry.service.state.users;
  const out: { creator: FlagCreator; user: User }[] = [];
  for (const id of ids) {
    const user = users[String(id)];
    const name = user && shownName(user);
    if (user && name) out.push({ creator: { id, name }, user });
  }
  return out.sort((a, b) => byName(a.user, b.user));
}

/**
 * `GET /api/admin/projects/:projectId/flag-creators`: everyone who created an active flag of the project.
 *
 * @example projectFlagCreators(registry, actor.state) // ok([{ id: 3, name: 'Ada' }])
 */
export function projectFlagCreators(registry: Registry, state: ProjectState): Result<FlagCreator[]> {
  return ok(creatorsOf(registry, creatorIds(state)).map((c) => c.creator));
}

/**
 * `GET /api/admin/flag-creators`: the creators of active flags across every project, filtered by `q` (inside
 * the name, or at the start of the username or email, case-insensitive), one page of them and the total.
 *
 * @example flagCreators(registry, { q: 'ad', offset: 0, limit: 50 }) // ok({ flagCreators: [...], total: 1 })
 */
export function flagCreators(registry: Registry, query: FlagCreatorsQuery): Result<{ flagCreators: FlagCreator[]; total: number }> {
  const ids = new Set<number>();
  for (const id of registry.projectIds()) {
    const actor = registry.project(id);
    if (actor) for (const creator of creatorIds(actor.state)) ids.add(creator);
  }
  const q = query.q?.toLowerCase() ?? '';
  const matching = creatorsOf(registry, ids).filter(({ user }) =>
    q === '' || (user.name ?? '').toLowerCase().includes(q) || (user.username ?? '').toLowerCase().startsWith(q) || (user.email ?? '').toLowerCase().startsWith(q));
  return ok({ flagCreators: matching.slice(query.offset, query.offset + query.limit).map((c) => c.creator), total: matching.length });
}
