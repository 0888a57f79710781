/**
 * Flag search, Unleash 6.10's `GET /api/admin/search/features` (docs/api-decisions.md "Flag search"): every
 * project's flags the caller may read, filtered, sorted and paged from the committed states.
 */
import { FeatureSearchQuerySchema } from '../../schemas/search.schema.js';
import { defineRoute, type RouteSpec } from '../route.js';

export const searchRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/search/features', tag: 'Search', permission: 'READ',
    summary: 'Search and filter flags of every project (`query`, `project`, `type`, `tag`, `segment`, `state`, `status`, `lifecycle`, `createdAt`, `archived`, `sortBy`, `sortOrder`, `offset`, `limit`)',
    query: FeatureSearchQuerySchema,
    success: { status: 200, description: '`{features, total}`: one page of the matching flags and how many match' },
    handle: ({ c, query, deps }) => c.json(deps.search.search(query)),
  }),
];
