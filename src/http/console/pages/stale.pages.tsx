/** @jsxImportSource hono/jsx */
/**
 * The stale flags (`/stale`) and their bulk actions (`POST /stale/:projectId/bulk`): marked stale and archived
 * through the use cases of the flag table's bulk bar (`POST /api/admin/projects/:projectId/stale` and
 * `/archive`), with the same permissions in the project; an archive asks first, naming every flag.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import type { Result } from '../../../domain/result.js';
import { staleFlagPage, staleProjects } from '../../../queries/stale-flags.query.js';
import { INSIGHT_PAGE_SIZE, StalePageQuerySchema } from '../../../schemas/insight-pages.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { ProjectParamsSchema } from '../../../schemas/params.schema.js';
import { archiveFlags, markFlagsStale } from '../../../use-cases/bulk-flags.use-cases.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { mayIn } from '../flag-table-page.js';
import { frameOf, renderPage, safeNext } from '../render.js';
import { ArchiveConfirmPage, StalePage } from '../views/stale/stale-page.js';

/** A stale-page address a form sent back (`back`), or `/stale`. */
function backTo(raw: string | undefined): string {
  const safe = safeNext(raw);
  return safe === '/stale' || safe.startsWith('/stale?') ? safe : '/stale';
}

/** What a done bulk action says (the count is the only part read from the address). */
function doneText(done: string | null, count: number): string | undefined {
  const flags = `${count} ${count === 1 ? 'flag' : 'flags'}`;
  if (done === 'stale') return `Marked ${flags} stale.`;
  if (done === 'archived') return `Archived ${flags}. They can be revived from the Archive.`;
  return undefined;
}

/** The stale page for the query in `search`, with a refusal's message when there is one. */
function staleAnswer(c: Context<AppEnv>, deps: AppDeps, search: URLSearchParams, status = 200, error?: string): Response {
  const parsed = v.safeParse(StalePageQuerySchema, Object.fromEntries(search));
  if (!parsed.success) throw apiError('ValidationError', `This view's address could not be read: ${formatIssues(parsed.issues).message}`);
  const query = parsed.output;
  const now = Date.now();
  const projects = staleProjects(deps.registry, now);
  const chosen = query.project ?? (projects.find((p) => p.counts.any > 0) ?? projects[0])?.id;
  const actor = chosen === undefined ? undefined : deps.registry.project(chosen);
  if (!actor) throw apiError('NotFoundError', `No project "${query.project ?? ''}"`);
  const page = staleFlagPage(deps.registry, actor.state, query, INSIGHT_PAGE_SIZE, now);
  const done = doneText(search.get('done'), Math.max(0, Number(search.get('count')) || 0));
  const notice = error !== undefined ? { kind: 'error' as const, message: error } : done ? { kind: 'done' as const, message: done } : undefined;
  return renderPage(c, (
    <StalePage frame={frameOf(c, deps)} projects={projects} project={{ id: actor.state.meta.id, name: actor.state.meta.name }}
      kind={query.kind} q={query.q} page={page} notice={notice}
      may={{ stale: mayIn(c, actor, 'UPDATE_FEATURE'), archive: mayIn(c, actor, 'DELETE_FEATURE') }} />
  ), status);
}

export const stalePages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/stale', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'Stale, overdue and unused flags of a project (project, kind, search and page in the query string)', query: StalePageQuerySchema,
    success: { status: 200, description: 'An HTML page' }, errors: ['NotFoundError'],
    handle: ({ c, deps }) => staleAnswer(c, deps, new URL(c.req.url).searchParams),
  }),
  defineRoute({
    method: 'post', path: '/stale/:projectId/bulk', tag: 'Console', permission: 'UPDATE_FEATURE', authentication: 'session', page: true,
    summary: 'Mark the selected flags stale, or archive them after a confirmation page (the stale page\'s bulk bar)', params: ProjectParamsSchema,
    success: { status: 303, description: 'Back to the stale page' },
    handle: async ({ c, deps, params, principal, project }) => {
      const actor = project();
      const body = await c.req.parseBody({ all: true });
      const listed = body['features'];
      const features = [...new Set((Array.isArray(listed) ? listed : [listed]).filter((f): f is string => typeof f === 'string' && f !== ''))];
      const form = c.get('form') ?? {};
      const back = backTo(form['back']);
      const search = new URL(back, 'http://console').searchParams;
      const action = form['action'];
      if (action !== 'stale' && action !== 'archive') throw apiError('ValidationError', '"action" must be one of stale, archive');
      if (!mayIn(c, actor, action === 'stale' ? 'UPDATE_FEATURE' : 'DELETE_FEATURE')) throw apiError('NoAccessError', 'You may not do this to flags in this project');
      if (features.length === 0) return staleAnswer(c, deps, search, 400, 'Select at least one flag first.');
      if (action === 'archive' && form['confirmed'] !== 'yes') {
        const meta = actor.state.meta;
        return renderPage(c, <ArchiveConfirmPage frame={frameOf(c, deps)} project={{ id: meta.id, name: meta.name }} features={features} back={back} />);
      }
      const ref = { projectId: params.projectId, features };
      const done: Result<null> = action === 'stale' ? await markFlagsStale(deps.registry, { ...ref, stale: true }, principal) : await archiveFlags(deps.registry, ref, principal);
      if (!done.ok) return staleAnswer(c, deps, search, STATUS[done.error.kind], done.error.message);
      search.set('done', action === 'stale' ? 'stale' : 'archived');
      search.set('count', String(features.length));
      search.delete('page');
      return c.redirect(`/stale?${search}`, 303);
    },
  }),
];
