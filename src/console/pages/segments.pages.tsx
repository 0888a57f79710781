/** @jsxImportSource hono/jsx */
/**
 * The segment pages (`/admin/segments`): a paged list with where each is used, a segment's page with the
 * constraint editor, create, save and delete. Writes call the API's segment use cases, which check the
 * segment's own permission (`UPDATE_SEGMENT` for a global one, `UPDATE_PROJECT` in a project's); a refusal
 * shows the form again with the API's messages next to the fields they name.
 */
import type { Context } from 'hono';
import { type Principal, roleIn, segmentWriteRefusal } from '../../auth/permissions.js';
import type { Segment } from '../../domain/segment.js';
import { searchPage } from '../../queries/paging.js';
import { segmentUsage } from '../../queries/segment-usage.query.js';
import { allSegments, segmentById } from '../../queries/segments.query.js';
import { SegmentParamsSchema } from '../../schemas/params.schema.js';
import { createSegment, deleteSegment, updateSegment } from '../../use-cases/segments.use-cases.js';
import { apiError } from '../../http/errors.js';
import { inputOf } from '../../http/route.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { buttonForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { SegmentForm, segmentDraftOf, type SegmentDraft } from '../forms/segment.form.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { SegmentEditor } from '../views/segments/segment-editor.js';
import { SegmentList } from '../views/segments/segment-list.js';
import { done, noticeOf } from '../notices.js';

const PAGE_SIZE = 25;

/** Whether the caller may write a segment of `project` (null: global), as the use cases decide it. */
function mayWrite(c: Context<ConsoleEnv>, deps: ConsoleDeps, project: string | null): boolean {
  const principal = c.get('principal') as Principal;
  const members = project === null ? undefined : deps.registry.project(project)?.state.meta.members;
  const role = members ? roleIn(principal, members) : undefined;
  return segmentWriteRefusal(principal, project, role) === null;
}

/** Where the caller may put a segment: global, then the projects they may write segments of (`keep` stays offered). */
function placesOf(c: Context<ConsoleEnv>, deps: ConsoleDeps, keep: string): { value: string; label: string }[] {
  const places = [
    ...(mayWrite(c, deps, null) ? [{ value: '', label: 'Global (every project)' }] : []),
    ...deps.registry.projectIds().filter((id) => mayWrite(c, deps, id)).map((id) => ({ value: id, label: `Project ${deps.registry.project(id)?.state.meta.name ?? id}` })),
  ];
  if (!places.some((p) => p.value === keep)) places.unshift({ value: keep, label: keep === '' ? 'Global (every project)' : `Project ${keep}` });
  return places;
}

function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps): Response {
  const paged = searchPage(allSegments(deps.registry), (s) => [s.name, s.description ?? ''], c.req.query('q'), c.req.query('page'), PAGE_SIZE);
  const usage = segmentUsage(deps.registry, paged.rows.map((s) => s.id));
  const list = { ...paged, rows: paged.rows.map((segment) => ({ segment, usage: usage.get(segment.id)!, mayWrite: mayWrite(c, deps, segment.project) })) };
  return renderPage(c, <SegmentList list={list} mayCreate={mayWrite(c, deps, null) || deps.registry.projectIds().some((id) => mayWrite(c, deps, id))} notice={noticeOf('segments', c.req.query('done'))} />);
}

/** A segment's page (or the new one), with a refused form when there is one. */
function editorPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, segment: Segment | undefined, draft: SegmentDraft, refused?: Refusal<unknown>): Response {
  const usage = segment ? segmentUsage(deps.registry, [segment.id]).get(segment.id) : undefined;
  return renderPage(c, (
    <SegmentEditor segment={segment} draft={draft} usage={usage} mayWrite={mayWrite(c, deps, segment ? segment.project : draft.project === '' ? null : draft.project)}
      places={placesOf(c, deps, draft.project)} contextFields={deps.registry.service.state.contextFields.map((f) => f.name)} error={refused} notice={noticeOf('segments', c.req.query('done'))} />
  ));
}

/** The stored segment the path names, or the 404 page. */
function stored(deps: ConsoleDeps, id: number): Segment {
  const found = segmentById(deps.registry, id);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  return found.value;
}

export const segmentPages = [
  definePage({
    method: 'get', path: '/admin/segments', permission: 'READ', summary: 'The segment list (`?q=`, `?page=`)',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  definePage({
    method: 'get', path: '/admin/new-segment', permission: 'UPDATE_SEGMENT', scope: 'segment',
    summary: 'The new-segment form (`?project=`: a segment of that project)',
    handle: ({ c, deps }) => editorPage(c, deps, undefined, { name: '', description: '', project: c.req.query('project') ?? '', constraints: [] }),
  }),
  definePage({
    method: 'post', path: '/admin/segments', permission: 'UPDATE_SEGMENT', scope: 'segment', form: SegmentForm,
    success: { status: 303, description: 'To the new segment' }, summary: 'Create a segment',
    handle: ({ registry, form, principal }) => createSegment(registry, form, principal),
    done: (created) => done(`/admin/segments/${created.id}`, 'segments', 'created'),
    refused: ({ c, deps }, refusal) => editorPage(c, deps, undefined, refusal.draft, refusal),
  }),
  definePage({
    method: 'get', path: '/admin/segments/:id', permission: 'READ', params: SegmentParamsSchema,
    summary: 'A segment: its constraints, where it is used, and its forms for those who may change it',
    handle: ({ c, deps, params }) => {
      const segment = stored(deps, params.id);
      return editorPage(c, deps, segment, segmentDraftOf(segment));
    },
  }),
  definePage({
    method: 'post', path: '/admin/segments/:id', permission: 'UPDATE_SEGMENT', scope: 'segment', params: SegmentParamsSchema, form: SegmentForm,
    success: { status: 303, description: 'Back to the segment' }, summary: 'Save a segment (name, description, project, constraints)',
    handle: ({ registry, params, form, principal }) => updateSegment(registry, inputOf(params, form), principal),
    done: (_, { params }) => done(`/admin/segments/${params.id}`, 'segments', 'saved'),
    refused: ({ c, deps, params }, refusal) => editorPage(c, deps, stored(deps, params.id), refusal.draft, refusal),
  }),
  definePage({
    method: 'post', path: '/admin/segments/:id/delete', permission: 'UPDATE_SEGMENT', scope: 'segment', params: SegmentParamsSchema, form: buttonForm('delete'),
    success: { status: 303, description: 'To the segment list' }, summary: 'Delete a segment no strategy uses (refused with where it is used)',
    handle: ({ registry, params, principal }) => deleteSegment(registry, params, principal),
    done: () => done('/admin/segments', 'segments', 'deleted'),
    refused: ({ c, deps, params }, refusal) => {
      const segment = stored(deps, params.id);
      return editorPage(c, deps, segment, segmentDraftOf(segment), refusal);
    },
  }),
];
