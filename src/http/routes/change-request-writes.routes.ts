/**
 * Writing one change request (Unleash Enterprise's API, docs/api-decisions.md "Change requests"): its state
 * (review, approve, reject, cancel, schedule, apply), its title, its changes, comments and reviewers, and
 * discarding a draft. Who may take which step is the project mailbox's decision (`decide/change-request-*.ts`).
 */
import { ChangeSchema, CommentBodySchema, ReviewersBodySchema, StateBodySchema, TitleBodySchema } from '../../schemas/change-request.schema.js';
import { ChangeParamsSchema, ChangeRequestParamsSchema, ChangeRequestView } from '../../schemas/change-request-params.schema.js';
import { changeState } from '../../use-cases/change-request-state.use-cases.js';
import { addComment, discardChange, discardRequest, editChange, setReviewers, setTitle } from '../../use-cases/change-requests.use-cases.js';
import { changeRequestView } from '../change-request-views.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { CHANGE_REQUESTS } from './change-requests.routes.js';

const TAG = 'Change requests';

/** `{projectId, changeRequestId, changeId}` as the use cases name a change: `{projectId, id, changeId}`. */
const changeRef = (p: { projectId: string; changeRequestId: number; changeId: number }) => ({ projectId: p.projectId, id: p.changeRequestId, changeId: p.changeId });

export const changeRequestWriteRoutes: RouteSpec[] = [
  defineRoute({
    method: 'put', path: `${CHANGE_REQUESTS}/:id/title`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Rename a change request (its author, or an admin)', params: ChangeRequestParamsSchema, body: TitleBodySchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, body, principal, registry }) => setTitle(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'put', path: `${CHANGE_REQUESTS}/:changeRequestId/changes/:changeId`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT', scope: 'changes',
    summary: 'Replace a change of a change request (it gets a new id; a request in review or approved goes back to review)',
    params: ChangeParamsSchema, body: ChangeSchema,
    success: { status: 200, description: 'The change request', schema: ChangeRequestView }, errors: ['NotFoundError', 'InvalidOperationError', 'ArchivedFeatureError'],
    handle: ({ params, body, principal, registry }) => editChange(registry, inputOf(changeRef(params), { change: body }), principal),
    view: (request, { params, registry }) => changeRequestView(registry, params.projectId, request),
  }),
  defineRoute({
    method: 'delete', path: `${CHANGE_REQUESTS}/:changeRequestId/changes/:changeId`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Discard a change of a change request', params: ChangeParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: async ({ params, principal, registry }) => {
      const discarded = await discardChange(registry, changeRef(params), principal);
      return discarded.ok ? { ok: true as const, value: null } : discarded;
    },
  }),
  defineRoute({
    method: 'delete', path: `${CHANGE_REQUESTS}/:id`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Discard a draft (its author, or an admin)', params: ChangeRequestParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, principal, registry }) => discardRequest(registry, params, principal),
  }),
  defineRoute({
    method: 'post', path: `${CHANGE_REQUESTS}/:id/comments`, tag: TAG, permission: 'READ',
    summary: 'Comment on an open change request', params: ChangeRequestParamsSchema, body: CommentBodySchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, body, principal, registry }) => addComment(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'put', path: `${CHANGE_REQUESTS}/:id/approvers`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Ask users who may approve to review the change request (replaces the list; at most 10)', params: ChangeRequestParamsSchema, body: ReviewersBodySchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, body, principal, registry }) => setReviewers(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'put', path: `${CHANGE_REQUESTS}/:id/state`, tag: TAG, permission: 'UPDATE_FEATURE_ENVIRONMENT', scope: 'change-request-state',
    summary: 'Move a change request: `In review`, `Approved`, `Rejected`, `Cancelled`, `Scheduled` (with `scheduledAt`) or `Applied` (all its changes in one command, or none)',
    params: ChangeRequestParamsSchema, body: StateBodySchema,
    success: { status: 200, description: 'The change request; after an apply, `overwrittenConflicts` lists what had moved since its changes were added', schema: ChangeRequestView },
    errors: ['NotFoundError', 'InvalidOperationError', 'ArchivedFeatureError', 'ExceedsLimitError'],
    handle: ({ params, body, principal, registry }) => changeState(registry, inputOf(params, body), principal),
    view: ({ request, overwritten }, { params, registry }) => {
      const view = changeRequestView(registry, params.projectId, request);
      return overwritten === undefined ? view : Object.assign(view, { overwrittenConflicts: overwritten });
    },
  }),
];
