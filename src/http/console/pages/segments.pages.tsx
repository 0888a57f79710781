/** @jsxImportSource hono/jsx */
/**
 * The segment pages (`/admin/segments`): a paged list with where each is used, a segment's page with the
 * constraint editor, create, save and delete. Writes call the API's segment use cases, which check the
 * segment's own permission (`UPDATE_SEGMENT` for a global one, `UPDATE_PROJECT` in a project's); a refusal
 * shows the form again with the API's message next to the field it names.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { segmentWriteRefusal, type Principal } from '../../../auth/permissions.js';
import type { DomainError } from '../../../domain/errors.js';
import type { Segment } from '../../../domain/segment.js';
import { pageOf } from '../../../queries/paging.js';
import { segmentUsage } from '../../../queries/segment-usage.query.js';
import { allSegments, segmentById } from '../../../queries/segments.query.js';
import { formatIssues } from '../../../schemas/issues.js';
import { SegmentParamsSchema } from '../../../schemas/params.schema.js';
import { UpsertSegmentSchema } from '../../../schemas/segment.schema.js';
import { createSegment, deleteSegment, updateSegment } from '../../../use-cases/segments.use-cases.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { frameOf, renderPage } from '../render.js';
import { segmentBodyOf, segmentDraftFromForm, segmentDraftOf, segmentFieldOf, type SegmentDraft } from '../segment-form-fields.js';
import { SegmentEditor } from '../views/segments/segment-editor.js';
import { SegmentList } from '../views/segments/segment-list.js';

const page = { tag: 'Console', authentication: 'session', page: true } as const;
const HTML = { status: 200, description: 'An HTML page' };
const PAGE_SIZE = 25;
const NOTICES = { created: 'Segment created.', saved: 'Segment saved.', deleted: 'Segment deleted.' } as const;

const noticeOf = (c: Context<AppEnv>) => {
  const done = c.req.query('done');
  return done !== undefined && Object.hasOwn(NOTICES, done) ? NOTICES[done as keyof typeof NOTICES] : undefined;
};

/** Whether the caller may write a segment of `project` (null: global), as the use cases decide it. */
function mayWrite(c: Context<AppEnv>, deps: AppDeps, project: string | null): boolean {
  const principal = c.get('principal') as Principal;
  const role = project !== null && principal.kind === 'user' ? deps.registry.project(project)?.state.meta.members[String(principal.user.id)] : undefined;
  return segmentWriteRefusal(principal, project, role) === null;
}

/** Where the caller may put a segment: global, then the projects they may write segments of (`keep` stays offered). */
function placesOf(c: Context<AppEnv>, deps: AppDeps, keep: string): { value: string; label: string }[] {
  const places = [
    ...(mayWrite(c, deps, null) ? [{ value: '', label: 'Global (every project)' }] : []),
    ...deps.registry.projectIds().filter((id) => mayWrite(c, deps, id)).map((id) => ({ value: id, label: `Project ${deps.registry.project(id)?.state.meta.name ?? id}` })),
  ];
  if (!places.some((p) => p.value === keep)) places.unshift({ value: keep, label: keep === '' ? 'Global (every project)' : `Project ${keep}` });
  return places;
}

function listPage(c: Context<AppEnv>, deps: AppDeps): Response {
  const q = (c.req.query('q') ?? '').trim().slice(0, 100);
  const needle = q.toLowerCase();
  const matching = needle === '' ? allSegments(deps.registry) : allSegments(deps.registry).filter((s) => s.name.toLowerCase().includes(needle) || (s.description ?? '').toLowerCase().includes(needle));
  const paged = pageOf(matching, Number.parseInt(c.req.query('page') ?? '1', 10), PAGE_SIZE);
  const usage = segmentUsage(deps.registry, paged.rows.map((s) => s.id));
  const list = { ...paged, rows: paged.rows.map((segment) => ({ segment, usage: usage.get(segment.id)!, mayWrite: mayWrite(c, deps, segment.project) })) };
  const frame = frameOf(c, deps);
  return renderPage(c, <SegmentList frame={frame} list={list} q={q} mayCreate={mayWrite(c, deps, null) || deps.registry.projectIds().some((id) => mayWrite(c, deps, id))} notice={noticeOf(c)} />);
}

/** A segment's page (or the new one), with a refused form when there is one. */
function editorPage(c: Context<AppEnv>, deps: AppDeps, segment: Segment | undefined, draft: SegmentDraft, status = 200, refused?: { form: string; error: Pick<DomainError, 'kind' | 'message'> }): Response {
  const { _csrf: _, ...values } = c.get('form') ?? {};
  const error = refused ? { form: refused.form, field: refused.form === 'segment' ? segmentFieldOf(refused.error.message) : null, message: refused.error.message, values } : undefined;
  const usage = segment ? segmentUsage(deps.registry, [segment.id]).get(segment.id) : undefined;
  return renderPage(c, (
    <SegmentEditor frame={frameOf(c, deps)} segment={segment} draft={draft} usage={usage} mayWrite={mayWrite(c, deps, segment ? segment.project : draft.project === '' ? null : draft.project)}
      places={placesOf(c, deps, draft.project)} contextFields={deps.registry.service.state.contextFields.map((f) => f.name)} error={error} notice={noticeOf(c)} />
  ), status);
}

/** The stored segment the path names, or the 404 page. */
function stored(deps: AppDeps, id: number): Segment {
  const found = segmentById(deps.registry, id);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  return found.value;
}

/** The form's segment, validated by the API's schema: the body, or the page again with the message next to its field. */
function parsedSegment(c: Context<AppEnv>, deps: AppDeps, segment: Segment | undefined) {
  const draft = segmentDraftFromForm(c.get('form') ?? {});
  const parsed = v.safeParse(UpsertSegmentSchema, segmentBodyOf(draft));
  if (parsed.success) return { draft, body: parsed.output };
  return { draft, refused: editorPage(c, deps, segment, draft, 400, { form: 'segment', error: { kind: 'ValidationError', message: formatIssues(parsed.issues).message } }) };
}

export const segmentPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: '/admin/segments', permission: 'READ', summary: 'The segment list (`?q=`, `?page=`)', success: HTML,
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  defineRoute({
    ...page, method: 'get', path: '/admin/new-segment', permission: 'UPDATE_SEGMENT', scope: 'segment', success: HTML,
    summary: 'The new-segment form (`?project=`: a segment of that project)',
    handle: ({ c, deps }) => editorPage(c, deps, undefined, { name: '', description: '', project: c.req.query('project') ?? '', constraints: [] }),
  }),
  defineRoute({
    ...page, method: 'post', path: '/admin/segments', permission: 'UPDATE_SEGMENT', scope: 'segment', success: { status: 303, description: 'To the new segment' },
    summary: 'Create a segment',
    handle: async ({ c, deps, principal, registry }) => {
      const form = parsedSegment(c, deps, undefined);
      if (!form.body) return form.refused;
      const created = await createSegment(registry, form.body, principal);
      if (!created.ok) return editorPage(c, deps, undefined, form.draft, STATUS[created.error.kind], { form: 'segment', error: created.error });
      return c.redirect(`/admin/segments/${created.value.id}?done=created`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'get', path: '/admin/segments/:id', permission: 'READ', params: SegmentParamsSchema, success: HTML,
    summary: 'A segment: its constraints, where it is used, and its forms for those who may change it',
    handle: ({ c, deps, params }) => {
      const segment = stored(deps, params.id);
      return editorPage(c, deps, segment, segmentDraftOf(segment));
    },
  }),
  defineRoute({
    ...page, method: 'post', path: '/admin/segments/:id', permission: 'UPDATE_SEGMENT', scope: 'segment', params: SegmentParamsSchema,
    success: { status: 303, description: 'Back to the segment' }, summary: 'Save a segment (name, description, project, constraints)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const segment = stored(deps, params.id);
      const form = parsedSegment(c, deps, segment);
      if (!form.body) return form.refused;
      const saved = await updateSegment(registry, { id: params.id, ...form.body }, principal);
      if (!saved.ok) return editorPage(c, deps, segment, form.draft, STATUS[saved.error.kind], { form: 'segment', error: saved.error });
      return c.redirect(`/admin/segments/${params.id}?done=saved`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'post', path: '/admin/segments/:id/delete', permission: 'UPDATE_SEGMENT', scope: 'segment', params: SegmentParamsSchema,
    success: { status: 303, description: 'To the segment list' }, summary: 'Delete a segment no strategy uses (refused with where it is used)',
    handle: async ({ c, deps, params, principal, registry }) => {
      const segment = stored(deps, params.id);
      const deleted = await deleteSegment(registry, params, principal);
      if (!deleted.ok) return editorPage(c, deps, segment, segmentDraftOf(segment), STATUS[deleted.error.kind], { form: 'delete', error: deleted.error });
      return c.redirect('/admin/segments?done=deleted', 303);
    },
  }),
];

