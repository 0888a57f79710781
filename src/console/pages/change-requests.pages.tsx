/** @jsxImportSource hono/jsx */
/**
 * A project's change requests in the console (docs/api-decisions.md "Change requests"): the list by state with
 * "Waiting for me", one request's page, and its forms: the title, a comment, a step of its state (submit,
 * approve, reject, cancel, apply), a schedule (or a new one), discarding a change or the draft. Each post calls
 * the use case the API's change-request route calls; the project's mailbox decides who may take which step.
 */
import { ChangeParamsSchema, ChangeRequestParamsSchema } from '../../schemas/change-request-params.schema.js';
import { ListPageQuerySchema } from '../../schemas/admin-pages.schema.js';
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { changeState } from '../../use-cases/change-request-state.use-cases.js';
import { addComment, discardChange, discardRequest, setTitle } from '../../use-cases/change-requests.use-cases.js';
import { buttonForm } from '../forms/flag.forms.js';
import { CommentForm, ScheduleForm, StepForm, TitleForm } from '../forms/change-request.forms.js';
import { done, type Done } from '../notices.js';
import { definePage } from '../page.js';
import { changeRequestsUrl, changeRequestUrl } from '../views/change-requests/change-request-urls.js';
import { listPage, requestPage } from './change-request-render.js';

const LIST = '/projects/:projectId/change-requests';
const REQUEST = `${LIST}/:id`;
const BACK = { status: 303, description: 'Back to the change request\'s page' };

/** What a step's notice says, by the state asked for. */
const STEP_DONE: Record<string, Done<'changeRequests'>> = {
  'In review': 'submitted', Approved: 'approved', Rejected: 'rejected', Cancelled: 'cancelled', Applied: 'applied', Scheduled: 'scheduled',
};

/** Back to the request's page with its confirmation. */
const toRequest = (p: { projectId: string; id: number }, key: Done<'changeRequests'>) => done(changeRequestUrl(p.projectId, p.id), 'changeRequests', key);

export const changeRequestPages = [
  definePage({
    method: 'get', path: LIST, permission: 'READ', params: ProjectParamsSchema, query: ListPageQuerySchema,
    summary: 'A project\'s change requests: waiting for the viewer, open by state, closed (search and page in the query string)',
    handle: ({ c, deps, params, query }) => listPage(c, deps, params.projectId, query),
  }),
  definePage({
    method: 'get', path: REQUEST, permission: 'READ', params: ChangeRequestParamsSchema,
    summary: 'A change request: its changes with their diffs and conflicts, approvals, schedule and comments',
    handle: ({ c, deps, params }) => requestPage(c, deps, params),
  }),
  definePage({
    method: 'post', path: `${REQUEST}/title`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: ChangeRequestParamsSchema, form: TitleForm, success: BACK,
    summary: 'Rename a change request (its author, or an admin)',
    handle: ({ registry, params, form, principal }) => setTitle(registry, { projectId: params.projectId, id: params.id, title: form.title }, principal),
    done: (_, { params }) => toRequest(params, 'titled'),
    refused: ({ c, deps, params }, refusal) => requestPage(c, deps, params, refusal),
  }),
  definePage({
    method: 'post', path: `${REQUEST}/comments`, permission: 'READ', params: ChangeRequestParamsSchema, form: CommentForm, success: BACK,
    summary: 'Comment on an open change request',
    handle: ({ registry, params, form, principal }) => addComment(registry, { projectId: params.projectId, id: params.id, text: form.text }, principal),
    done: (_, { params }) => `${toRequest(params, 'commented')}#cr-comments-title`,
    refused: ({ c, deps, params }, refusal) => requestPage(c, deps, params, refusal),
  }),
  definePage({
    method: 'post', path: `${REQUEST}/state`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: ChangeRequestParamsSchema, form: StepForm, success: BACK,
    summary: 'Move a change request (`state`: `In review`, `Approved`, `Rejected`, `Cancelled` or `Applied`), with an optional comment',
    handle: ({ registry, params, form, principal }) => changeState(registry, { projectId: params.projectId, id: params.id, state: form.state, comment: form.comment, scheduledAt: form.scheduledAt }, principal),
    done: (_, { params, form }) => toRequest(params, STEP_DONE[form.state] ?? 'submitted'),
    refused: ({ c, deps, params }, refusal) => requestPage(c, deps, params, refusal),
  }),
  definePage({
    method: 'post', path: `${REQUEST}/schedule`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: ChangeRequestParamsSchema, form: ScheduleForm, success: BACK,
    summary: 'Schedule an approved change request, or reschedule a scheduled one (`scheduledAt`: a date and time in UTC, in the future)',
    handle: ({ registry, params, form, principal }) => changeState(registry, { projectId: params.projectId, id: params.id, state: 'Scheduled', scheduledAt: form.scheduledAt }, principal),
    done: (_, { params }) => toRequest(params, 'scheduled'),
    refused: ({ c, deps, params }, refusal) => requestPage(c, deps, params, refusal),
  }),
  definePage({
    method: 'post', path: `${LIST}/:changeRequestId/changes/:changeId/discard`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: ChangeParamsSchema,
    form: buttonForm('discard-change'), success: BACK, summary: 'Discard a change of a change request',
    handle: ({ registry, params, principal }) => discardChange(registry, { projectId: params.projectId, id: params.changeRequestId, changeId: params.changeId }, principal),
    done: (_, { params }) => toRequest({ projectId: params.projectId, id: params.changeRequestId }, 'discardedChange'),
    refused: ({ c, deps, params }, refusal) => requestPage(c, deps, { projectId: params.projectId, id: params.changeRequestId }, { ...refusal, form: `discard:${params.changeId}` }),
  }),
  definePage({
    method: 'post', path: `${REQUEST}/discard`, permission: 'UPDATE_FEATURE_ENVIRONMENT', params: ChangeRequestParamsSchema, form: buttonForm('discard'),
    success: { status: 303, description: 'To the project\'s change requests' }, summary: 'Discard a draft (its author, or an admin)',
    handle: ({ registry, params, principal }) => discardRequest(registry, params, principal),
    done: (_, { params }) => done(changeRequestsUrl(params.projectId), 'changeRequests', 'discarded'),
    refused: ({ c, deps, params }, refusal) => requestPage(c, deps, params, refusal),
  }),
];
