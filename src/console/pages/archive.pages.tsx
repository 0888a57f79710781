/** @jsxImportSource hono/jsx */
/**
 * The archive (`/archive`): archived flags of every project, revived or deleted through the use cases of
 * `POST /api/admin/projects/:projectId/revive` and `/delete`, with the same permission in the flag's project
 * (`DELETE_FEATURE`). A delete goes through a confirmation page naming the flag.
 */
import type { Context } from 'hono';
import { archivePage } from '../../queries/archive.query.js';
import { flagById } from '../../queries/flags.query.js';
import { FeatureParamsSchema } from '../../schemas/params.schema.js';
import { INSIGHT_PAGE_SIZE, ListPageQuerySchema } from '../../schemas/insight-pages.schema.js';
import { deleteArchivedFlags, reviveFlags } from '../../use-cases/flags.use-cases.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { mayIn } from '../flag-table-page.js';
import { BackForm } from '../forms/flag-table.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { renderPage, safeNext } from '../render.js';
import { ArchivePage, DeleteConfirmPage } from '../views/archive/archive-page.js';
import { done, noticeOf, type Done } from '../notices.js';

/** An archive address a form sent back (`back`), or `/archive`. */
function backTo(raw: string | undefined): string {
  const safe = safeNext(raw);
  return safe === '/archive' || safe.startsWith('/archive?') ? safe : '/archive';
}

/** The archive page for this request (`q` and `page` from `back` after a refused post, at its status). */
function archiveAnswer(c: Context<ConsoleEnv>, deps: ConsoleDeps, search: URLSearchParams, error?: string): Response {
  const q = search.get('q')?.trim() || undefined;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const confirmed = noticeOf('archive', search.get('done'));
  const notice = error !== undefined ? { kind: 'error' as const, message: error } : confirmed ? { kind: 'done' as const, message: confirmed } : undefined;
  const mayRemove = (projectId: string) => {
    const actor = deps.registry.project(projectId);
    return actor !== undefined && mayIn(c, actor, 'DELETE_FEATURE');
  };
  return renderPage(c, <ArchivePage q={q} page={archivePage(deps.registry, { q, page }, INSIGHT_PAGE_SIZE)} mayRemove={mayRemove} notice={notice} />);
}

/** Back to the archive page the form was sent from (its search and page kept), with a fixed confirmation. */
function doneUrl(back: string, key: Done<'archive'>): string {
  const url = new URL(back, 'http://console');
  url.searchParams.delete('done');
  return done(`${url.pathname}${url.search}`, 'archive', key);
}

/** The archive page a form was sent from again, with the refusal's message. */
const refusedOnArchive = ({ c, deps }: { c: Context<ConsoleEnv>; deps: ConsoleDeps }, refusal: Refusal<{ back: string }>) =>
  archiveAnswer(c, deps, new URL(backTo(refusal.draft.back), 'http://console').searchParams, refusal.error.message);

/** The post that revives or deletes an archived flag (`action`), by the use case of the API's revive or delete, back to the archive page it came from. */
const archivedFlagPost = (action: 'revive' | 'delete', summary: string, decide: typeof reviveFlags) => definePage({
  method: 'post', path: `/archive/:projectId/:featureName/${action}`, permission: 'DELETE_FEATURE', params: FeatureParamsSchema, form: BackForm,
  summary, success: { status: 303, description: 'Back to the archive' },
  handle: ({ deps, params, principal }) => decide(deps.registry, { projectId: params.projectId, features: [params.featureName] }, principal),
  done: (_, { form }) => doneUrl(backTo(form.back), action === 'revive' ? 'revived' : 'deleted'),
  refused: refusedOnArchive,
});

export const archivePages = [
  definePage({
    method: 'get', path: '/archive', permission: 'READ', query: ListPageQuerySchema, summary: 'The archived flags of every project (search and page in the query string)',
    handle: ({ c, deps }) => archiveAnswer(c, deps, new URL(c.req.url).searchParams),
  }),
  archivedFlagPost('revive', 'Revive an archived flag (from the archive)', reviveFlags),
  definePage({
    method: 'get', path: '/archive/:projectId/:featureName/delete', permission: 'DELETE_FEATURE', params: FeatureParamsSchema, errors: ['NotFoundError'],
    summary: 'The confirmation page of deleting an archived flag',
    handle: ({ c, deps, params, project }) => {
      const found = flagById(project().state, params.featureName);
      if (!found.ok || !found.value.archived) throw apiError('NotFoundError', `No archived flag "${params.featureName}" in project "${params.projectId}"`);
      const meta = project().state.meta;
      return renderPage(c, <DeleteConfirmPage project={{ id: meta.id, name: meta.name }} flag={found.value.name} back={backTo(c.req.query('back'))} />);
    },
  }),
  archivedFlagPost('delete', 'Delete an archived flag for good (the confirmation page\'s form)', deleteArchivedFlags),
];
