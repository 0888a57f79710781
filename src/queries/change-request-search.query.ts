/**
 * `GET /api/admin/search/change-requests` (Unleash Enterprise's): the requests of every project, newest first,
 * filtered by author, requested reviewer and open or closed; and who a recorded sender is, as the views show
 * people (`{id, username, imageUrl}`).
 */
import type { Registry } from '../actors/registry.js';
import { isOpen, isSegmentChange, type ChangeRequest } from '../domain/change-request.js';
import type { Schedule } from '../domain/change-request.js';

/** A person as Unleash's change-request answers show one. */
export interface Person {
  id?: number;
  username: string;
  imageUrl: null;
}

/**
 * Who a recorded sender is: a user by id (their username, else email, else name), a token by its name, the
 * service itself as `system`.
 *
 * @example personOf(registry, 'user:3') // { id: 3, username: 'ann', imageUrl: null }
 */
export function personOf(registry: Registry, by: string): Person {
  if (by.startsWith('user:')) {
    const id = Number(by.slice('user:'.length));
    const users = registry.service.state.users;
    const user = Object.hasOwn(users, String(id)) ? users[String(id)] : undefined;
    return { id, username: user?.username ?? user?.email ?? user?.name ?? `user ${id}`, imageUrl: null };
  }
  const cut = by.indexOf(':');
  return { username: cut < 0 ? by : by.slice(cut + 1), imageUrl: null };
}

/** What the search asks: `IS:<user id>` filters and `IS:open` / `IS:closed`; a page of it. */
export interface RequestSearch {
  createdBy?: number | undefined;
  requestedApproverId?: number | undefined;
  state?: 'open' | 'closed' | undefined;
  offset: number;
  limit: number;
}

/** One request as the search lists it. */
export interface SearchItem {
  id: number;
  title: string;
  project: string;
  environment: string;
  state: ChangeRequest['state'];
  createdAt: string;
  createdBy: Person;
  features: string[];
  segments: string[];
  schedule?: Schedule;
}

/** The page of matching requests of every project (newest first, then by project and id) and how many match in all. */
export function searchChangeRequests(registry: Registry, search: RequestSearch): { changeRequests: SearchItem[]; total: number } {
  const found: { project: string; request: ChangeRequest }[] = [];
  const author = search.createdBy === undefined ? undefined : `user:${search.createdBy}`;
  for (const project of registry.projectIds()) {
    for (const request of registry.project(project)?.state.changeRequests.requests.values() ?? []) {
      if (author !== undefined && request.createdBy !== author) continue;
      if (search.requestedApproverId !== undefined && !request.reviewers.includes(search.requestedApproverId)) continue;
      if (search.state !== undefined && isOpen(request.state) !== (search.state === 'open')) continue;
      found.push({ project, request });
    }
  }
  found.sort((a, b) => (a.request.createdAt !== b.request.createdAt ? (a.request.createdAt < b.request.createdAt ? 1 : -1)
    : a.project !== b.project ? (a.project < b.project ? -1 : 1) : b.request.id - a.request.id));
  const segments = registry.service.state.segments;
  const changeRequests = found.slice(search.offset, search.offset + search.limit).map(({ project, request }): SearchItem => {
    const item: SearchItem = {
      id: request.id, title: request.title, project, environment: request.environment, state: request.state, createdAt: request.createdAt,
      createdBy: personOf(registry, request.createdBy),
      features: [...new Set(request.changes.flatMap((c) => (c.feature ? [c.feature] : [])))],
      segments: [...new Set(request.changes.filter(isSegmentChange).map((c) => segments[String(c.payload.id)]?.name ?? (c.action === 'updateSegment' ? c.payload.name : String(c.payload.id))))],
    };
    if (request.state === 'Scheduled' && request.schedule) item.schedule = request.schedule;
    return item;
  });
  return { changeRequests, total: found.length };
}
