/** @jsxImportSource hono/jsx */
/**
 * The archive (`/archive`): archived flags of every project, revived or deleted through the use cases of
 * `POST /api/admin/projects/:projectId/revive` and `/delete`, with the same permission in the flag's project
 * (`DELETE_FEATURE`). A delete goes through a confirmation page naming the flag.
 */
import type { Context } from 'hono';
import { archivePage } from '../../../queries/archive.query.js';
import { flagById } from '../../../queries/flags.query.js';
import { FeatureParamsSchema } from '../../../schemas/params.schema.js';
import { INSIGHT_PAGE_SIZE, ListPageQuerySchema } from '../../../schemas/insight-pages.schema.js';
import { deleteArchivedFlags, reviveFlags } from '../../../use-cases/flags.use-cases.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { mayIn } from '../flag-table-page.js';
import { frameOf, renderPage, safeNext } from '../render.js';
import { ArchivePage, DeleteConfirmPage } from '../views/archive/archive-page.js';

const PAGE = { status: 200, description: 'An HTML page' };

/** The fixed confirmations of `?done=` (never a text from the address). */
const DONE = { revived: 'Flag revived: it is off in every environment.', deleted: 'Flag deleted.' } as const;

/** An archive address a form sent back (`back`), or `/archive`. */
function backTo(raw: string | undefined): string {
  const safe = safeNext(raw);
  return safe === '/archive' || safe.startsWith('/archive?') ? safe : '/archive';
}

/** The archive page for this request (`q` and `page` from `back` after a refused post). */
function archiveAnswer(c: Context<AppEnv>, deps: AppDeps, search: URLSearchParams, status = 200, error?: string): Response {
  const q = search.get('q')?.trim() || undefined;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const done = search.get('done');
  const notice = error !== undefined ? { kind: 'error' as const, message: error } : done === 'revived' || done === 'deleted' ? { kind: 'done' as const, message: DONE[done] } : undefined;
  const mayRemove = (projectId: string) => {
    const actor = deps.registry.project(projectId);
    return actor !== undefined && mayIn(c, actor, 'DELETE_FEATURE');
  };
  return renderPage(c, <ArchivePage frame={frameOf(c, deps)} q={q} page={archivePage(deps.registry, { q, page }, INSIGHT_PAGE_SIZE)} mayRemove={mayRemove} notice={notice} />, status);
}

/** Back to the archive page the form was sent from, with a fixed confirmation. */
function doneRedirect(c: Context<AppEnv>, back: string, done: keyof typeof DONE): Response {
  const url = new URL(back, 'http://console');
  url.searchParams.set('done', done);
  return c.redirect(`${url.pathname}${url.search}`, 303);
}

export const archivePages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/archive', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'The archived flags of every project (search and page in the query string)', query: ListPageQuerySchema, success: PAGE,
    handle: ({ c, deps }) => archiveAnswer(c, deps, new URL(c.req.url).searchParams),
  }),
  defineRoute({
    method: 'post', path: '/archive/:projectId/:featureName/revive', tag: 'Console', permission: 'DELETE_FEATURE', authentication: 'session', page: true,
    summary: 'Revive an archived flag (from the archive)', params: FeatureParamsSchema, success: { status: 303, description: 'Back to the archive' },
    handle: async ({ c, deps, params, principal }) => {
      const back = backTo(c.get('form')?.['back']);
      const revived = await reviveFlags(deps.registry, { projectId: params.projectId, features: [params.featureName] }, principal);
      if (!revived.ok) return archiveAnswer(c, deps, new URL(back, 'http://console').searchParams, STATUS[revived.error.kind], revived.error.message);
      return doneRedirect(c, back, 'revived');
    },
  }),
  defineRoute({
    method: 'get', path: '/archive/:projectId/:featureName/delete', tag: 'Console', permission: 'DELETE_FEATURE', authentication: 'session', page: true,
    summary: 'The confirmation page of deleting an archived flag', params: FeatureParamsSchema, success: PAGE, errors: ['NotFoundError'],
    handle: ({ c, deps, params, project }) => {
      const found = flagById(project().state, params.featureName);
      if (!found.ok || !found.value.archived) throw apiError('NotFoundError', `No archived flag "${params.featureName}" in project "${params.projectId}"`);
      const meta = project().state.meta;
      return renderPage(c, <DeleteConfirmPage frame={frameOf(c, deps)} project={{ id: meta.id, name: meta.name }} flag={found.value.name} back={backTo(c.req.query('back'))} />);
    },
  }),
  defineRoute({
    method: 'post', path: '/archive/:projectId/:featureName/delete', tag: 'Console', permission: 'DELETE_FEATURE', authentication: 'session', page: true,
    summary: 'Delete an archived flag for good (the confirmation page\'s form)', params: FeatureParamsSchema, success: { status: 303, description: 'Back to the archive' },
    handle: async ({ c, deps, params, principal }) => {
      const back = backTo(c.get('form')?.['back']);
      const deleted = await deleteArchivedFlags(deps.registry, { projectId: params.projectId, features: [params.featureName] }, principal);
      if (!deleted.ok) return archiveAnswer(c, deps, new URL(back, 'http://console').searchParams, STATUS[deleted.error.kind], deleted.error.message);
      return doneRedirect(c, back, 'deleted');
    },
  }),
];
