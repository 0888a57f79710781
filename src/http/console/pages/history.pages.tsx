/** @jsxImportSource hono/jsx */
/**
 * The history pages of a project: its timeline with the change of each entry (`/history`), the project as it
 * was at a moment (`/at`, read-only) and two moments compared (`/compare`). Each calls the history queries the
 * way an API route calls a use case; a moment that cannot be shown is a page that says why, not an error page.
 */
import type { Context } from 'hono';
import { isAllowed } from '../../../auth/permissions.js';
import type { DomainError } from '../../../domain/errors.js';
import { historyPeople, projectHistory, type ChangeKind } from '../../../queries/history.query.js';
import { compareMoments, isMomentError, preparePastViews, projectAt } from '../../../queries/past-project.query.js';
import { projectName } from '../../../queries/project-list.query.js';
import {
  ComparePageQuerySchema, HISTORY_KINDS, HISTORY_PAGE_SIZE, HistoryPageQuerySchema, PAST_PAGE_SIZE, PastPageQuerySchema,
} from '../../../schemas/history-page.schema.js';
import { ProjectParamsSchema } from '../../../schemas/params.schema.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { frameOf, renderPage } from '../render.js';
import { ComparePage } from '../views/history/compare-page.js';
import { HistoryPage } from '../views/history/history-page.js';
import { PastPage } from '../views/history/past-page.js';

const PAGE = { status: 200, description: 'An HTML page' };

// The filter offers exactly the query's kinds: one added to CHANGE_KINDS but not to HISTORY_KINDS (or the
// reverse) fails to compile here.
type Unoffered = Exclude<ChangeKind, (typeof HISTORY_KINDS)[number]> | Exclude<(typeof HISTORY_KINDS)[number], ChangeKind>;
const KINDS: [Unoffered] extends [never] ? readonly ChangeKind[] : never = HISTORY_KINDS;

/** The project the path names, by id and name (a 404 page when there is none). */
function projectOf(deps: AppDeps, projectId: string): { id: string; name: string } {
  const name = projectName(deps.registry, projectId);
  if (name === undefined) throw apiError('NotFoundError', `No project "${projectId}"`);
  return { id: projectId, name };
}

/** A failure a page shows in place (a date that is not one, a moment that cannot be shown); any other is thrown. */
function shown(error: DomainError): { status: number; title: string; message: string } {
  const status = STATUS[error.kind];
  if (isMomentError(error)) return { status, title: error.reason === 'trimmed' ? 'This moment is no longer kept' : 'The project did not exist yet', message: error.message };
  if (error.kind === 'ValidationError') return { status, title: 'That is not a date and time', message: error.message };
  throw apiError(error.kind, error.message);
}

const page = (c: Context<AppEnv>, node: unknown, status: number) => renderPage(c, node, status);

export const historyPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/projects/:projectId/history', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'A project\'s history: every change with what it moved, filtered by flag, person, kind of change and time',
    params: ProjectParamsSchema, query: HistoryPageQuerySchema, success: PAGE,
    handle: async ({ c, deps, params, query, principal }) => {
      const project = projectOf(deps, params.projectId);
      // Only the people of this history, with an email only for who may list users (docs/permissions.md).
      const people = await historyPeople(deps.registry, project.id, isAllowed(principal, 'ADMIN', undefined));
      const result = await projectHistory(deps.registry, project.id, {
        feature: query.feature, by: query.by, kinds: query.kind ? [query.kind] : undefined, from: query.from, to: query.to,
        offset: query.offset, limit: HISTORY_PAGE_SIZE,
      });
      // A click on an entry's moment should answer at once: the checkpoints are built while the person reads.
      preparePastViews(deps.registry, project.id);
      const failure = result.ok ? undefined : shown(result.error);
      const flags = deps.registry.project(project.id)?.state.flags;
      const isFlag = (name: string) => flags?.has(name) ?? false;
      const props = { frame: frameOf(c, deps), project, query, people: people.ok ? people.value : new Map<string, string>(), kinds: KINDS, isFlag, pageSize: HISTORY_PAGE_SIZE };
      return page(c, <HistoryPage {...props} page={result.ok ? result.value : { title: failure!.title, error: failure!.message }} />, failure?.status ?? 200);
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:projectId/at', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'A project as it was at a moment (`t`, ISO 8601 or a date and time in UTC): read-only',
    params: ProjectParamsSchema, query: PastPageQuerySchema, success: PAGE,
    handle: async ({ c, deps, params, query }) => {
      const project = projectOf(deps, params.projectId);
      const props = { frame: frameOf(c, deps), project, query, pageSize: PAST_PAGE_SIZE };
      if (query.t === undefined) return page(c, <PastPage {...props} past={null} />, 200);
      const past = await projectAt(deps.registry, project.id, query.t);
      if (past.ok) return page(c, <PastPage {...props} past={past.value} />, 200);
      const failure = shown(past.error);
      const earliest = isMomentError(past.error) ? past.error.earliest : null;
      return page(c, <PastPage {...props} past={{ title: failure.title, error: failure.message, earliest }} />, failure.status);
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:projectId/compare', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'Two moments of a project compared (`from`, `to`): every flag whose configuration differs, with the diff',
    params: ProjectParamsSchema, query: ComparePageQuerySchema, success: PAGE,
    handle: async ({ c, deps, params, query }) => {
      const project = projectOf(deps, params.projectId);
      const props = { frame: frameOf(c, deps), project, query, pageSize: PAST_PAGE_SIZE };
      if (query.from === undefined || query.to === undefined) return page(c, <ComparePage {...props} comparison={null} />, 200);
      const comparison = await compareMoments(deps.registry, project.id, query.from, query.to);
      if (comparison.ok) return page(c, <ComparePage {...props} comparison={comparison.value} />, 200);
      const failure = shown(comparison.error);
      return page(c, <ComparePage {...props} comparison={{ title: failure.title, error: failure.message }} />, failure.status);
    },
  }),
];
