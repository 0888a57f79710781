/**
 * The flags of a project (docs/admin-contract.md §4.2 to §4.8, §4.20, and revive).
 *
 * This module is the example to copy for a route module: each route is one record (method, path,
 * permission, schemas, whether it is conditional on the flag's version, the errors it adds) whose handler
 * is a line or two: validated input → use case → result, and whose view shapes the body. No rule, no
 * store, no domain value: those live in the use case, the domain and the machines.
 */
import { BatchFeaturesSchema, CloneFeatureSchema, CreateFeatureSchema, ReviveSchema, UpdateFeatureSchema } from '../../schemas/feature.schema.js';
import { FeatureParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { JsonPatchSchema } from '../../schemas/patch.schema.js';
import { archiveFlag, cloneFlag, createFlag, deleteArchivedFlags, patchFlag, reviveFlags, updateFlag } from '../../use-cases/flags.use-cases.js';
import { flagChildren } from '../../queries/dependencies.query.js';
import { hasAnyTag, parseTagFilters } from '../../queries/tags.query.js';
import { FlagListQuerySchema } from '../../schemas/tag.schema.js';
import { flagWithStage } from '../../queries/lifecycle.query.js';
import { flagSeen, projectUsage } from '../../queries/usage.query.js';
import { apiError } from '../errors.js';
import { sendJson } from '../answers/gzip.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { FlagDetailView, FlagRecordView, flagDetail, flagRecord, orderedEnvironments } from '../answers/views.js';

const FLAG = '/api/admin/projects/:projectId/features/:featureName';

export const featureRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/features', tag: 'Features', permission: 'READ',
    summary: 'List the active flags of a project (`tag=type:value`, repeatable: those with any of the tags; `namePrefix`: names starting with it)', params: ProjectParamsSchema, query: FlagListQuerySchema,
    success: { status: 200, description: '`{version: 2, features: [summary]}`' },
    handle: ({ c, params, query, project, deps, registry }) => {
      const args = [project().state, registry.service.state.environments, registry.service.seq, projectUsage(registry, params.projectId)] as const;
      const byTag = query.tag !== undefined && query.tag.length > 0;
      const prefix = query.namePrefix ?? '';
      if (!byTag && prefix === '') return sendJson(c, deps.summaries.list(...args), deps.gzip);
      const wanted = byTag ? parseTagFilters(query.tag!) : [];
      return sendJson(c, deps.summaries.filtered(...args, (flag) => flag.name.startsWith(prefix) && (!byTag || hasAnyTag(flag, wanted))), deps.gzip);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/features', tag: 'Features', permission: 'CREATE_FEATURE',
    summary: 'Create a flag', params: ProjectParamsSchema, body: CreateFeatureSchema,
    success: { status: 201, description: 'The flag record', schema: FlagRecordView }, errors: ['NameExistsError'],
    handle: ({ params, body, principal, registry }) => createFlag(registry, inputOf(params, body), principal),
    view: (flag, { params, registry }) => flagRecord(flag, params.projectId, flagSeen(registry, params.projectId, flag.name)),
  }),
  defineRoute({
    method: 'get', path: FLAG, tag: 'Features', permission: 'READ',
    summary: 'Get a flag with its environments and strategies (archived flags too)', params: FeatureParamsSchema,
    success: { status: 200, description: 'The flag in detail', schema: FlagDetailView }, errors: ['NotFoundError'],
    handle: ({ params, project }) => flagWithStage(project().state, params.featureName),
    view: ({ flag, lifecycle }, { params, project, registry }) =>
      flagDetail(flag, lifecycle, params.projectId, orderedEnvironments(registry.service.state.environments, project().state.meta.environments), flagSeen(registry, params.projectId, flag.name), flagChildren(project().state, flag.name)),
  }),
  defineRoute({
    method: 'put', path: FLAG, tag: 'Features', permission: 'UPDATE_FEATURE', conditional: true,
    summary: 'Replace the metadata of a flag', params: FeatureParamsSchema, body: UpdateFeatureSchema,
    success: { status: 200, description: 'The flag record', schema: FlagRecordView }, errors: ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'],
    handle: ({ params, body, ifMatch, principal, registry }) => {
      if (body.name !== params.featureName) throw apiError('ValidationError', `"name": must equal the flag name in the path ("${params.featureName}"); flags cannot be renamed`);
      return updateFlag(registry, inputOf(params, body, { ifMatch }), principal);
    },
    view: (flag, { params, registry }) => flagRecord(flag, params.projectId, flagSeen(registry, params.projectId, flag.name)),
  }),
  defineRoute({
    method: 'patch', path: FLAG, tag: 'Features', permission: 'UPDATE_FEATURE', conditional: true,
    summary: 'Apply RFC 6902 operations to the metadata of a flag', params: FeatureParamsSchema, body: JsonPatchSchema,
    success: { status: 200, description: 'The flag record', schema: FlagRecordView },
    errors: ['NotFoundError', 'ArchivedFeatureError', 'PatchTestFailed', 'PreconditionFailed'],
    handle: ({ params, body, ifMatch, principal, registry }) => patchFlag(registry, inputOf(params, { ifMatch, operations: body }), principal),
    view: (flag, { params, registry }) => flagRecord(flag, params.projectId, flagSeen(registry, params.projectId, flag.name)),
  }),
  defineRoute({
    method: 'delete', path: FLAG, tag: 'Features', permission: 'DELETE_FEATURE', conditional: true,
    summary: 'Archive a flag', params: FeatureParamsSchema,
    success: { status: 202, description: 'No body' }, errors: ['NotFoundError', 'PreconditionFailed'],
    handle: ({ params, ifMatch, principal, registry }) => archiveFlag(registry, inputOf(params, { ifMatch }), principal),
  }),
  defineRoute({
    method: 'post', path: `${FLAG}/clone`, tag: 'Features', permission: 'CREATE_FEATURE', conditional: true,
    summary: 'Clone a flag with its strategies and variants, disabled everywhere', params: FeatureParamsSchema, body: CloneFeatureSchema,
    success: { status: 201, description: 'The new flag record', schema: FlagRecordView }, errors: ['NotFoundError', 'ArchivedFeatureError', 'NameExistsError', 'PreconditionFailed'],
    handle: ({ params, body, ifMatch, principal, registry }) => cloneFlag(registry, inputOf(params, body, { ifMatch }), principal),
    view: (flag, { params, registry }) => flagRecord(flag, params.projectId, flagSeen(registry, params.projectId, flag.name)),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/revive', tag: 'Features', permission: 'DELETE_FEATURE',
    summary: 'Bring archived flags back, disabled in every environment', params: ProjectParamsSchema, body: ReviveSchema,
    success: { status: 200, description: 'No body' },
    handle: ({ params, body, principal, registry }) => reviveFlags(registry, inputOf(params, { features: body.features }), principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/delete', tag: 'Features', permission: 'DELETE_FEATURE',
    summary: 'Delete the listed flags that are archived', params: ProjectParamsSchema, body: BatchFeaturesSchema,
    success: { status: 200, description: 'No body' },
    handle: ({ params, body, principal, registry }) => deleteArchivedFlags(registry, inputOf(params, { features: body.features }), principal),
  }),
];
