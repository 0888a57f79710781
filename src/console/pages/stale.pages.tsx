/** @jsxImportSource hono/jsx */
/**
 * The stale flags (`/stale`) and their bulk actions (`POST /stale/:projectId/bulk`): marked stale and archived
 * through the use cases of the flag table's bulk bar (`POST /api/admin/projects/:projectId/stale` and
 * `/archive`), with the same permissions in the project; an archive asks first, naming every flag.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { staleFlagPage, staleProjects } from '../../queries/stale-flags.query.js';
import { INSIGHT_PAGE_SIZE, StalePageQuerySchema, type StalePageQuery } from '../../schemas/insight-pages.schema.js';
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { archiveFlags, markFlagsStale } from '../../use-cases/bulk-flags.use-cases.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { mayIn } from '../flag-table-page.js';
import { StaleBulkForm } from '../forms/flag-table.forms.js';
import { definePage } from '../page.js';
import { renderPage, safeNext } from '../render.js';
import { ArchiveConfirmPage, StalePage } from '../views/stale/stale-page.js';
import { bulkNotice } from '../notices.js';

/** A stale-page address a form sent back (`back`), or `/stale`. */
function backTo(raw: string | undefined): string {
  const safe = safeNext(raw);
  return safe === '/stale' || safe.startsWith('/stale?') ? safe : '/stale';
}

/** The stale page's query in an address a form sent back (`back`), or the defaults when it cannot be read. */
const BackQuerySchema = v.fallback(StalePageQuerySchema, () => v.parse(StalePageQuerySchema, {}));
const readQuery = (search: URLSearchParams): StalePageQuery => v.parse(BackQuerySchema, Object.fromEntries(search));

/** The stale page for `query` (`search`: its address), with a refusal's message when there is one (at the status set). */
function staleAnswer(c: Context<ConsoleEnv>, deps: ConsoleDeps, query: StalePageQuery, search: URLSearchParams, error?: string): Response {
  const now = Date.now();
  const projects = staleProjects(deps.registry, now);
  const chosen = query.project ?? (projects.find((p) => p.counts.any > 0) ?? projects[0])?.id;
  const actor = chosen === undefined ? undefined : deps.registry.project(chosen);
  if (!actor) throw apiError('NotFoundError', `No project "${query.project ?? ''}"`);
  const page = staleFlagPage(deps.registry, actor.state, query, INSIGHT_PAGE_SIZE, now);
  const done = bulkNotice(search.get('done'), Math.max(0, Number(search.get('count')) || 0));
  const notice = error !== undefined ? { kind: 'error' as const, message: error } : done ? { kind: 'done' as const, message: done } : undefined;
  return renderPage(c, (
    <StalePage projects={projects} project={{ id: actor.state.meta.id, name: actor.state.meta.name }}
      kind={query.kind} q={query.q} page={page} notice={notice}
      may={{ stale: mayIn(c, actor, 'UPDATE_FEATURE'), archive: mayIn(c, actor, 'DELETE_FEATURE') }} />
  ));
}

export const stalePages = [
  definePage({
    method: 'get', path: '/stale', permission: 'READ', query: StalePageQuerySchema, errors: ['NotFoundError'],
    summary: 'Stale, overdue and unused flags of a project (project, kind, search and page in the query string)',
    handle: ({ c, deps, query }) => staleAnswer(c, deps, query, new URL(c.req.url).searchParams),
  }),
  definePage({
    method: 'post', path: '/stale/:projectId/bulk', permission: 'UPDATE_FEATURE', params: ProjectParamsSchema, form: StaleBulkForm,
    summary: 'Mark the selected flags stale, or archive them after a confirmation page (the stale page\'s bulk bar)', success: { status: 303, description: 'Back to the stale page' },
    handle: ({ c, deps, params, form, principal, project }) => {
      const actor = project();
      if (!mayIn(c, actor, form.action === 'stale' ? 'UPDATE_FEATURE' : 'DELETE_FEATURE')) throw apiError('NoAccessError', 'You may not do this to flags in this project');
      if (form.features.length === 0) return { ok: false, error: { kind: 'ValidationError', message: 'Select at least one flag first.' } };
      if (form.action === 'archive' && !form.confirmed) {
        const meta = actor.state.meta;
        return renderPage(c, <ArchiveConfirmPage project={{ id: meta.id, name: meta.name }} features={form.features} back={backTo(form.back)} />);
      }
      const ref = { projectId: params.projectId, features: form.features };
      return form.action === 'stale' ? markFlagsStale(deps.registry, { ...ref, stale: true }, principal) : archiveFlags(deps.registry, ref, principal);
    },
    done: (_, { form }) => {
      const search = new URL(backTo(form.back), 'http://console').searchParams;
      search.set('done', form.action === 'stale' ? 'stale' : 'archived');
      search.set('count', String(form.features.length));
      search.delete('page');
      return `/stale?${search}`;
    },
    refused: ({ c, deps }, refusal) => {
      const search = new URL(backTo(refusal.draft.back), 'http://console').searchParams;
      return staleAnswer(c, deps, readQuery(search), search, refusal.error.message);
    },
  }),
];
