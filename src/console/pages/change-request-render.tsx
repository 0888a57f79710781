/** @jsxImportSource hono/jsx */
/**
 * The change-request pages as answers: their models gathered from the change-request queries the API's routes
 * read (the request with its conflicts, the project's list, what the caller can act on), the names of the people,
 * and the steps the viewer may take (the request machine's steps from its state, the permission table's answer).
 */
import type { Context } from 'hono';
import { isAllowed, principalLabel, roleIn, type Principal } from '../../auth/permissions.js';
import { isOpen, type ChangeRequest } from '../../domain/change-request.js';
import { changeRequestRules, type ChangeRequestEvent } from '../../../machines/change-request-rules.js';
import { actionableRequests, changeRequestById, projectChangeRequests } from '../../queries/change-requests.query.js';
import { pageOf, searchPage } from '../../queries/paging.js';
import type { ListPageQuery } from '../../schemas/admin-pages.schema.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import type { Refusal } from '../forms/form.js';
import { noticeOf } from '../notices.js';
import { renderPage } from '../render.js';
import { ChangeRequestList } from '../views/change-requests/change-request-list.js';
import { ChangeRequestPage } from '../views/change-requests/change-request-page.js';
import type { RequestActions } from '../views/change-requests/request-model.js';

/** Closed requests per page of the list. */
const CLOSED_PAGE = 50;

/** The names of the service's users, as the history names who did what (`user:3` → `Ann`). */
function peopleOf(deps: ConsoleDeps): Map<string, string> {
  return new Map(Object.values(deps.registry.service.state.users).map((u) => [`user:${u.id}`, u.name ?? u.username ?? u.email ?? `user ${u.id}`]));
}

function projectOf(c: Context<ConsoleEnv>) {
  const actor = c.get('actor');
  if (!actor) throw apiError('NotFoundError', 'This page names no project');
  return actor;
}

/**
 * What the viewer may do with `request`: a step the machine allows from its state, by whom the permission table
 * (docs/permissions.md "Change requests") lets take it. Only which buttons to show: the mailbox decides each.
 */
export function actionsFor(request: ChangeRequest, principal: Principal, role: number | undefined): RequestActions {
  const can = (event: ChangeRequestEvent) => changeRequestRules.step(request.state, event) !== null;
  const me = principalLabel(principal);
  const write = isAllowed(principal, 'UPDATE_FEATURE_ENVIRONMENT', role);
  const admin = principal.kind === 'admin' || isAllowed(principal, 'ADMIN', role);
  const own = write && (request.createdBy === me || admin);
  const approver = write && isAllowed(principal, 'APPROVE_CHANGE_REQUEST', role);
  const applier = write && isAllowed(principal, 'APPLY_CHANGE_REQUEST', role);
  return {
    rename: own && isOpen(request.state),
    discardChange: own && can({ type: 'edit' }),
    submit: own && request.changes.length > 0 && can({ type: 'submit' }),
    approve: approver && can({ type: 'approve', enough: true }) && (admin || request.createdBy !== me) && !request.approvals.some((a) => a.by === me),
    reject: approver && can({ type: 'reject' }),
    cancel: own && can({ type: 'cancel' }),
    apply: applier && can({ type: 'apply' }),
    schedule: applier && can({ type: 'schedule' }),
    discardDraft: own && can({ type: 'discard' }),
    comment: isOpen(request.state),
  };
}

/** A request's page, with a refused form when there is one (at the status set, or `status`). */
export function requestPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, p: { projectId: string; id: number }, refused?: Refusal<unknown>, status?: number): Response {
  const actor = projectOf(c);
  const found = changeRequestById(deps.registry, p.projectId, p.id);
  if (!found.ok) throw apiError(found.error.kind, found.error.message);
  const { request, conflicts } = found.value;
  const principal = c.get('principal');
  const model = {
    project: { id: actor.state.meta.id, name: actor.state.meta.name },
    request, conflicts, people: peopleOf(deps),
    may: actionsFor(request, principal, roleIn(principal, actor.state.meta.members)),
    now: new Date().toISOString(),
    refused, notice: noticeOf('changeRequests', c.req.query('done')),
  };
  return renderPage(c, <ChangeRequestPage model={model} />, status);
}

/** What the list's search reads of a request: its title, environment, number and flags. */
const searchText = (r: ChangeRequest): string[] => [r.title, r.environment, `#${r.id}`, ...r.changes.flatMap((c) => (c.feature ? [c.feature] : []))];

/** The project's change requests page. */
export function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, projectId: string, query: ListPageQuery): Response {
  const actor = projectOf(c);
  const all = projectChangeRequests(deps.registry, projectId);
  const waiting = actionableRequests(deps.registry, projectId, c.get('principal'));
  if (!all.ok || !waiting.ok) throw apiError('NotFoundError', `No project "${projectId}"`);
  const found = searchPage(all.value, searchText, query.q, 1, Math.max(1, all.value.length));
  return renderPage(c, (
    <ChangeRequestList project={{ id: actor.state.meta.id, name: actor.state.meta.name }} q={found.q} people={peopleOf(deps)}
      waiting={waiting.value} open={found.rows.filter((r) => isOpen(r.state))}
      closed={pageOf(found.rows.filter((r) => !isOpen(r.state)), query.page, CLOSED_PAGE)} notice={noticeOf('changeRequests', c.req.query('done'))} />
  ));
}
