/**
 * Segments (docs/client-contract.md "Segments", Unleash 6.10's `/api/admin/segments`). Reading needs `READ`; writing a
 * global segment `UPDATE_SEGMENT`, a project's `UPDATE_PROJECT` there (`scope: 'segment'`: checked by the
 * use case once the body or the stored segment names the project).
 */
import { SegmentParamsSchema } from '../../schemas/params.schema.js';
import { UpsertSegmentSchema } from '../../schemas/segment.schema.js';
import { allSegments, segmentById } from '../../queries/segments.query.js';
import { createSegment, deleteSegment, updateSegment } from '../../use-cases/segments.use-cases.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { SegmentListView, SegmentView, segmentView } from '../answers/views.js';

const SEGMENT = '/api/admin/segments/:id';

export const segmentRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/segments', tag: 'Segments', permission: 'READ',
    summary: 'List the segments by id', success: { status: 200, description: '`{segments}`', schema: SegmentListView },
    handle: ({ c, registry }) => c.json({ segments: allSegments(registry).map(segmentView) }),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/segments', tag: 'Segments', permission: 'UPDATE_SEGMENT', scope: 'segment',
    summary: 'Create a segment (global, or of `project`)', body: UpsertSegmentSchema,
    success: { status: 201, description: 'The segment', schema: SegmentView }, errors: ['NotFoundError', 'NameExistsError', 'ExceedsLimitError', 'Unavailable'],
    handle: ({ body, principal, registry }) => createSegment(registry, body, principal),
    view: segmentView,
  }),
  defineRoute({
    method: 'get', path: SEGMENT, tag: 'Segments', permission: 'READ',
    summary: 'Get a segment', params: SegmentParamsSchema,
    success: { status: 200, description: 'The segment', schema: SegmentView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => segmentById(registry, params.id),
    view: segmentView,
  }),
  defineRoute({
    method: 'put', path: SEGMENT, tag: 'Segments', permission: 'UPDATE_SEGMENT', scope: 'segment',
    summary: 'Replace a segment (without `project`: global); moving it to a project is refused while other projects use it',
    params: SegmentParamsSchema, body: UpsertSegmentSchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError', 'NameExistsError', 'ExceedsLimitError', 'Unavailable'],
    handle: ({ params, body, principal, registry }) => updateSegment(registry, { id: params.id, ...body }, principal),
  }),
  defineRoute({
    method: 'delete', path: SEGMENT, tag: 'Segments', permission: 'UPDATE_SEGMENT', scope: 'segment',
    summary: 'Delete a segment that no strategy uses (409 naming the flags that do)', params: SegmentParamsSchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError', 'Unavailable'],
    handle: ({ params, principal, registry }) => deleteSegment(registry, params, principal),
  }),
];
