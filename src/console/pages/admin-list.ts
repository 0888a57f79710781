/** The GET record of an administration list (users, tokens): `?q=` searches, `?page=` pages, `?done=` confirms a change. */
import type { Context } from 'hono';
import { ListPageQuerySchema, type ListPageQuery } from '../../schemas/admin-pages.schema.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { definePage } from '../page.js';

/** The list at `path`, drawn by `list` for the query (`ADMIN` only). */
export const adminListPage = (path: string, summary: string, list: (c: Context<ConsoleEnv>, deps: ConsoleDeps, query: ListPageQuery) => Response) =>
  definePage({ method: 'get', path, permission: 'ADMIN', query: ListPageQuerySchema, summary, handle: ({ c, deps, query }) => list(c, deps, query) });
