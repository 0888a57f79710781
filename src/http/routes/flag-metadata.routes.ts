/**
 * What Unleash's flag filters and forms read about flags in general: the flag types with their lifetimes
 * (`GET /api/admin/feature-types`) and who created flags (`GET /api/admin/flag-creators`, Unleash 8.1, and
 * `GET /api/admin/projects/:projectId/flag-creators`, Unleash 6.1).
 */
import * as v from 'valibot';
import { featureTypes } from '../../queries/feature-types.query.js';
import { flagCreators, projectFlagCreators } from '../../queries/flag-creators.query.js';
import { FLAG_TYPES } from '../../schemas/feature.schema.js';
import { FlagCreatorsQuerySchema, FlagCreatorsView, ProjectFlagCreatorsView } from '../../schemas/flag-creators.schema.js';
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { defineRoute, type RouteSpec } from '../route.js';

const FeatureTypesView = v.object({
  version: v.literal(1),
  types: v.array(v.object({ id: v.picklist(FLAG_TYPES), name: v.string(), description: v.string(), lifetimeDays: v.nullable(v.number()) })),
});

export const flagMetadataRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/feature-types', tag: 'Features', permission: 'READ',
    summary: 'List the flag types with the days after which a flag of each counts as potentially stale (null: never)',
    success: { status: 200, description: '`{version: 1, types: [{id, name, description, lifetimeDays}]}`', schema: FeatureTypesView },
    handle: () => featureTypes(),
    view: (types) => types,
  }),
  defineRoute({
    method: 'get', path: '/api/admin/flag-creators', tag: 'Users', permission: 'READ',
    summary: 'List the users who created active flags in any project (`q`: inside the name, or the start of the username or email; `offset`, `limit`)',
    query: FlagCreatorsQuerySchema,
    success: { status: 200, description: '`{flagCreators: [{id, name}], total}`', schema: FlagCreatorsView },
    handle: ({ query, registry }) => flagCreators(registry, query),
    view: (page) => page,
  }),
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/flag-creators', tag: 'Projects', permission: 'READ',
    summary: 'List the users who created the active flags of a project', params: ProjectParamsSchema,
    success: { status: 200, description: '`[{id, name}]`', schema: ProjectFlagCreatorsView }, errors: ['NotFoundError'],
    handle: ({ project, registry }) => projectFlagCreators(registry, project().state),
    view: (creators) => creators,
  }),
];
