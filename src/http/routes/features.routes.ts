import { BatchFeaturesSchema, CloneFeatureSchema, CreateFeatureSchema, ReviveSchema, UpdateFeatureSchema } from '../../schemas/feature.schema.js';
import { JsonPatchSchema } from '../../schemas/patch.schema.js';
import { FeatureParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import type { Flag } from '../../domain/types.js';
import { etagOf, parseIfMatch } from '../body.js';
import { apiError } from '../errors.js';
import { sendJson } from '../gzip.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { flagDetail, flagRecord, orderedEnvironments } from '../views.js';

const FLAG = '/api/admin/projects/:projectId/features/:featureName';

/** Answers a flag record with its ETag. */
const withEtag = (c: { header(name: string, value: string): void }, flag: Flag) => c.header('ETag', etagOf(flag.version));

/** Seed 4.2 to 4.8, 4.20 and revive: the flags of a project. */
export const featureRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/features', tag: 'Features', permission: 'READ',
    summary: 'List the active flags of a project', params: ProjectParamsSchema,
    success: { status: 200, description: '`{version: 2, features: [summary]}`' },
    handle: ({ c, project, deps }) => {
      const body = deps.summaries.list(project().state, deps.registry.service.state.environments, deps.registry.service.seq);
      return sendJson(c, body, deps.gzip);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/features', tag: 'Features', permission: 'CREATE_FEATURE',
    summary: 'Create a flag', params: ProjectParamsSchema, body: CreateFeatureSchema,
    success: { status: 201, description: 'The flag record' }, errors: ['NameExistsError'],
    handle: async ({ c, params, body, run }) => {
      const flag = await run<Flag>({ type: 'flag.create', name: body.name, description: body.description, flagType: body.type, impressionData: body.impressionData });
      withEtag(c, flag);
      return c.json(flagRecord(flag, params.projectId), 201);
    },
  }),
  defineRoute({
    method: 'get', path: FLAG, tag: 'Features', permission: 'READ',
    summary: 'Get a flag with its environments and strategies (archived flags too)', params: FeatureParamsSchema,
    success: { status: 200, description: 'The flag in detail' }, errors: ['NotFoundError'],
    handle: ({ c, params, project, deps }) => {
      const state = project().state;
      const flag = state.flags.get(params.featureName);
      if (!flag) throw apiError('NotFoundError', `Could not find feature flag "${params.featureName}" in project "${params.projectId}"`);
      withEtag(c, flag);
      return c.json(flagDetail(flag, params.projectId, orderedEnvironments(deps.registry.service.state.environments, state.meta.environments)));
    },
  }),
  defineRoute({
    method: 'put', path: FLAG, tag: 'Features', permission: 'UPDATE_FEATURE',
    summary: 'Replace the metadata of a flag', params: FeatureParamsSchema, body: UpdateFeatureSchema,
    success: { status: 200, description: 'The flag record' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'],
    handle: async ({ c, params, body, run }) => {
      if (body.name !== params.featureName) throw apiError('ValidationError', `"name": must equal the flag name in the path ("${params.featureName}"); flags cannot be renamed`);
      const flag = await run<Flag>({
        type: 'flag.update', feature: params.featureName, ifMatch: parseIfMatch(c.req.header('if-match')),
        description: body.description, flagType: body.type, stale: body.stale, impressionData: body.impressionData,
      });
      withEtag(c, flag);
      return c.json(flagRecord(flag, params.projectId));
    },
  }),
  defineRoute({
    method: 'patch', path: FLAG, tag: 'Features', permission: 'UPDATE_FEATURE',
    summary: 'Apply RFC 6902 operations to the metadata of a flag', params: FeatureParamsSchema, body: JsonPatchSchema,
    success: { status: 200, description: 'The flag record' },
    errors: ['NotFoundError', 'ArchivedFeatureError', 'PatchTestFailed', 'PreconditionFailed'],
    handle: async ({ c, params, body, run }) => {
      const flag = await run<Flag>({ type: 'flag.patch', feature: params.featureName, ifMatch: parseIfMatch(c.req.header('if-match')), operations: body });
      withEtag(c, flag);
      return c.json(flagRecord(flag, params.projectId));
    },
  }),
  defineRoute({
    method: 'delete', path: FLAG, tag: 'Features', permission: 'DELETE_FEATURE',
    summary: 'Archive a flag', params: FeatureParamsSchema,
    success: { status: 202, description: 'No body' }, errors: ['NotFoundError', 'PreconditionFailed'],
    handle: async ({ c, params, run }) => {
      await run({ type: 'flag.archive', feature: params.featureName, ifMatch: parseIfMatch(c.req.header('if-match')) });
      return c.body(null, 202);
    },
  }),
  defineRoute({
    method: 'post', path: `${FLAG}/clone`, tag: 'Features', permission: 'CREATE_FEATURE',
    summary: 'Clone a flag with its strategies and variants, disabled everywhere', params: FeatureParamsSchema, body: CloneFeatureSchema,
    success: { status: 201, description: 'The new flag record' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'NameExistsError'],
    handle: async ({ c, params, body, run }) => {
      const flag = await run<Flag>({
        type: 'flag.clone', feature: params.featureName, ifMatch: parseIfMatch(c.req.header('if-match')),
        name: body.name, replaceGroupId: body.replaceGroupId,
      });
      withEtag(c, flag);
      return c.json(flagRecord(flag, params.projectId), 201);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/revive', tag: 'Features', permission: 'DELETE_FEATURE',
    summary: 'Bring archived flags back, disabled in every environment', params: ProjectParamsSchema, body: ReviveSchema,
    success: { status: 200, description: 'No body' },
    handle: async ({ c, body, run }) => {
      await run({ type: 'flag.revive', features: body.features });
      return c.body(null, 200);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/delete', tag: 'Features', permission: 'DELETE_FEATURE',
    summary: 'Delete the listed flags that are archived', params: ProjectParamsSchema, body: BatchFeaturesSchema,
    success: { status: 200, description: 'No body' },
    handle: async ({ c, body, run }) => {
      await run({ type: 'flag.delete-archived', features: body.features });
      return c.body(null, 200);
    },
  }),
];
