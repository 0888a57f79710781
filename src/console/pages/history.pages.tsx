/** @jsxImportSource hono/jsx */
/**
 * The history pages of a project: its timeline with the change of each entry (`/history`), the project as it
 * was at a moment (`/at`, read-only) and two moments compared (`/compare`). Each calls the history queries the
 * way an API route calls a use case; a moment that cannot be shown is a page that says why, not an error page.
 */
import type { Child } from 'hono/jsx';
import type * as v from 'valibot';
import type { Registry } from '../../actors/registry.js';
import type { DomainError } from '../../domain/errors.js';
import type { Result } from '../../domain/result.js';
import { isAllowed } from '../../auth/permissions.js';
import { historyPeople, projectHistory, type ChangeKind } from '../../queries/history/history.query.js';
import { compareMoments, isMomentError, preparePastViews, projectAt } from '../../queries/history/past-project.query.js';
import { projectName } from '../../queries/project-list.query.js';
import {
  ComparePageQuerySchema, HISTORY_KINDS, HISTORY_PAGE_SIZE, HistoryPageQuerySchema, PAST_PAGE_SIZE, PastPageQuerySchema,
} from '../../schemas/history-page.schema.js';
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { apiError, STATUS } from '../../http/errors.js';
import type { QuerySchema } from '../../http/route.js';
import { definePage } from '../page.js';
import type { ConsoleDeps } from '../console-deps.js';
import { renderPage } from '../render.js';
import { ComparePage } from '../views/history/compare-page.js';
import { HistoryPage } from '../views/history/history-page.js';
import { PastPage } from '../views/history/past-page.js';

// The filter offers exactly the query's kinds: one added to CHANGE_KINDS but not to HISTORY_KINDS (or the
// reverse) fails to compile here.
type Unoffered = Exclude<ChangeKind, (typeof HISTORY_KINDS)[number]> | Exclude<(typeof HISTORY_KINDS)[number], ChangeKind>;
const KINDS: [Unoffered] extends [never] ? readonly ChangeKind[] : never = HISTORY_KINDS;

/** The project the path names, by id and name (a 404 page when there is none). */
function projectOf(deps: ConsoleDeps, projectId: string): { id: string; name: string } {
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

/** Why a moment cannot be shown, in place of it (with the earliest moment kept, when that is why). */
export interface MomentRefusal { title: string; error: string; earliest: string | null }

/**
 * A page of a project at a moment (or two): its form alone until one is `asked` in the query, else what
 * `answer` finds for it, else why it cannot be shown (at the failure's status).
 */
function momentPage<Q extends QuerySchema, A, T>(spec: {
  path: string;
  summary: string;
  query: Q;
  asked: (query: v.InferOutput<Q>) => A | undefined;
  answer: (registry: Registry, projectId: string, asked: A) => Promise<Result<T>>;
  view: (project: { id: string; name: string }, query: v.InferOutput<Q>, shown: T | MomentRefusal | null) => Child;
}) {
  return definePage({
    method: 'get', path: `/projects/:projectId/${spec.path}`, permission: 'READ', summary: spec.summary, params: ProjectParamsSchema, query: spec.query,
    handle: async ({ c, deps, params, query }) => {
      const project = projectOf(deps, params.projectId);
      const asked = spec.asked(query);
      if (asked === undefined) return renderPage(c, spec.view(project, query, null));
      const found = await spec.answer(deps.registry, project.id, asked);
      if (found.ok) return renderPage(c, spec.view(project, query, found.value));
      const failure = shown(found.error);
      const refusal = { title: failure.title, error: failure.message, earliest: isMomentError(found.error) ? found.error.earliest : null };
      return renderPage(c, spec.view(project, query, refusal), failure.status);
    },
  });
}

export const historyPages = [
  definePage({
    method: 'get', path: '/projects/:projectId/history', permission: 'READ',
    summary: 'A project\'s history: every change with what it moved, filtered by flag, person, kind of change and time',
    params: ProjectParamsSchema, query: HistoryPageQuerySchema,
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
      return renderPage(c, (
        <HistoryPage project={project} query={query} people={people.ok ? people.value : new Map<string, string>()} kinds={KINDS} isFlag={isFlag} pageSize={HISTORY_PAGE_SIZE}
          page={result.ok ? result.value : { title: failure!.title, error: failure!.message }} />
      ), failure?.status ?? 200);
    },
  }),
  momentPage({
    path: 'at', summary: 'A project as it was at a moment (`t`, ISO 8601 or a date and time in UTC): read-only', query: PastPageQuerySchema,
    asked: (query) => query.t, answer: projectAt,
    view: (project, query, past) => <PastPage project={project} query={query} pageSize={PAST_PAGE_SIZE} past={past} />,
  }),
  momentPage({
    path: 'compare', summary: 'Two moments of a project compared (`from`, `to`): every flag whose configuration differs, with the diff', query: ComparePageQuerySchema,
    asked: ({ from, to }) => (from !== undefined && to !== undefined ? { from, to } : undefined),
    answer: (registry, projectId, { from, to }) => compareMoments(registry, projectId, from, to),
    view: (project, query, comparison) => <ComparePage project={project} query={query} pageSize={PAST_PAGE_SIZE} comparison={comparison} />,
  }),
];
