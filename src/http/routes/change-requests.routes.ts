/**
 * Change requests (Unleash Enterprise's API, docs/api-decisions.md "Change requests"): the per-environment
 * settings, drafting, the lists, one request and its reviewers. The state of a request, its title, changes
 * and comments are in `change-request-writes.routes.ts`. Every path under `/api/admin/projects/:projectId/change-requests`
 * is served by a mounted app (src/app.ts `MOUNTED_PREFIXES`): its static segments sit beside `:id`.
 */
import { ChangesBodySchema, ConfigBodySchema } from '../../schemas/change-request.schema.js';
import {
  ChangeRequestListView, ChangeRequestParamsSchema, ChangeRequestSearchQuerySchema, ChangeRequestView, ConfigView, PendingFlagParamsSchema,
  ReviewerParamsSchema, ReviewersView, ScheduledQuerySchema, SearchView,
} from '../../schemas/change-request-params.schema.js';
import { ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import {
  actionableCount, availableReviewers, changeRequestById, changeRequestConfig, changeRequestCounts, pendingForCaller, pendingForFlag,
  projectChangeRequests, requestedReviewers, scheduledTouching,
} from '../../queries/change-requests.query.js';
import { searchChangeRequests } from '../../queries/change-request-search.query.js';
import { ok } from '../../domain/result.js';
import { addChanges, configureChangeRequests } from '../../use-cases/change-requests.use-cases.js';
import { changeRequestView, reviewersView } from '../change-request-views.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';

const P = '/api/admin/projects/:projectId';
/** The prefix every request route but the settings' PUT and the draft's POST lives under. */
export const CHANGE_REQUESTS = `${P}/change-requests`;
const TAG = 'Change requests';

export const changeRequestRoutes: RouteSpec[] = [
  defineRoute({
    method: 'put', path: `${P}/environments/:environment/change-requests/config`, tag: TAG, permission: 'UPDATE_PROJECT',
    summary: 'Turn change requests on or off for an environment of the project (`changeRequestsEnabled`, `requiredApprovals` 1 to 10)',
    params: ProjectEnvironmentParamsSchema, body: ConfigBodySchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => configureChangeRequests(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'post', path: `${P}/environments/:environment/change-requests`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT', scope: 'changes',
    summary: 'Add a change, or an array of them, to your open change request for the environment (a new draft when you have none)',
    params: ProjectEnvironmentParamsSchema, body: ChangesBodySchema,
    success: { status: 200, description: 'The change request', schema: ChangeRequestView }, errors: ['NotFoundError', 'InvalidOperationError', 'ExceedsLimitError', 'ArchivedFeatureError'],
    handle: ({ params, body, principal, registry }) => addChanges(registry, inputOf(params, { changes: Array.isArray(body) ? body : [body] }), principal),
    view: (request, { params, registry }) => changeRequestView(registry, params.projectId, request),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/search/change-requests', tag: TAG, permission: 'READ',
    summary: 'Search the change requests of every project (`createdBy=IS:<user id>`, `requestedApproverId=IS:<user id>`, `state=IS:open|IS:closed`), newest first',
    query: ChangeRequestSearchQuerySchema, success: { status: 200, description: '`{changeRequests, total}`', schema: SearchView },
    handle: ({ query, registry }) => ok(searchChangeRequests(registry, query)),
    view: (found) => found,
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/config`, tag: TAG, permission: 'READ',
    summary: 'The change-request setting of every environment of the project', params: ProjectParamsSchema,
    success: { status: 200, description: '`[{environment, type, changeRequestEnabled, requiredApprovals}]`', schema: ConfigView },
    handle: ({ params, registry }) => changeRequestConfig(registry, params.projectId),
    view: (rows) => rows,
  }),
  defineRoute({
    method: 'get', path: CHANGE_REQUESTS, tag: TAG, permission: 'READ',
    summary: 'The change requests of the project, every state, newest first (at most 300)', params: ProjectParamsSchema,
    success: { status: 200, description: 'Change requests', schema: ChangeRequestListView },
    handle: ({ params, registry }) => projectChangeRequests(registry, params.projectId),
    view: (requests, { params, registry }) => requests.map((r) => changeRequestView(registry, params.projectId, r)),
  }),
  ...(['pending', 'open'] as const).map((list) => defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/${list}`, tag: TAG, permission: 'READ',
    summary: `Your open change requests of the project, newest first${list === 'open' ? ' (an older name of `pending`)' : ''}`, params: ProjectParamsSchema,
    success: { status: 200, description: 'Change requests', schema: ChangeRequestListView },
    handle: ({ params, principal, registry }) => pendingForCaller(registry, params.projectId, principal),
    view: (requests, { params, registry }) => requests.map((r) => changeRequestView(registry, params.projectId, r)),
  })),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/pending/:featureName`, tag: TAG, permission: 'READ',
    summary: 'Every Draft, In review or Approved change request that changes the flag', params: PendingFlagParamsSchema,
    success: { status: 200, description: 'Change requests', schema: ChangeRequestListView },
    handle: ({ params, registry }) => pendingForFlag(registry, params.projectId, params.featureName),
    view: (requests, { params, registry }) => requests.map((r) => changeRequestView(registry, params.projectId, r)),
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/scheduled`, tag: TAG, permission: 'READ',
    summary: 'Scheduled change requests that change any of the flags (`feature`), strategies (`strategyId`) or flags\' variants (`variantForFlag`) asked; nothing asked: `[]`',
    params: ProjectParamsSchema, query: ScheduledQuerySchema, success: { status: 200, description: '`[{id, environment, title}]`' },
    handle: ({ params, query, registry }) => scheduledTouching(registry, params.projectId, { features: query.feature, strategyIds: query.strategyId, variantsOf: query.variantForFlag }),
    view: (requests) => requests.map((r) => ({ id: r.id, environment: r.environment, title: r.title })),
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/count`, tag: TAG, permission: 'READ',
    summary: 'How many change requests the project has, in all and by state', params: ProjectParamsSchema,
    success: { status: 200, description: '`{total, approved, applied, rejected, reviewRequired, scheduled}`' },
    handle: ({ params, registry }) => changeRequestCounts(registry, params.projectId),
    view: (counts) => counts,
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/actionable`, tag: TAG, permission: 'READ',
    summary: 'How many change requests of the project you can approve or apply now', params: ProjectParamsSchema,
    success: { status: 200, description: '`{total}`' },
    handle: ({ params, principal, registry }) => actionableCount(registry, params.projectId, principal),
    view: (count) => count,
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/available-reviewers/:environment`, tag: TAG, permission: 'READ',
    summary: 'The users who may approve change requests of the project', params: ReviewerParamsSchema,
    success: { status: 200, description: '`{reviewers}`', schema: ReviewersView },
    handle: ({ params, registry }) => availableReviewers(registry, params.projectId),
    view: reviewersView,
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/:id`, tag: TAG, permission: 'READ',
    summary: 'A change request, with the conflicts of its changes', params: ChangeRequestParamsSchema,
    success: { status: 200, description: 'The change request', schema: ChangeRequestView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => changeRequestById(registry, params.projectId, params.id),
    view: ({ request, conflicts }, { params, registry }) => changeRequestView(registry, params.projectId, request, conflicts),
  }),
  defineRoute({
    method: 'get', path: `${CHANGE_REQUESTS}/:id/approvers`, tag: TAG, permission: 'READ',
    summary: 'The reviewers asked to review the change request', params: ChangeRequestParamsSchema,
    success: { status: 200, description: '`{reviewers}`', schema: ReviewersView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => requestedReviewers(registry, params.projectId, params.id),
    view: reviewersView,
  }),
];
