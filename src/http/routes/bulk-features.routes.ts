/**
 * Unleash 6.10's bulk routes over the flags of one project: mark stale / not stale, archive, enable or
 * disable in one environment; and the project's archived-flag list. Each write is one command in the
 * project's mailbox (one record: all of it or nothing).
 */
import * as v from 'valibot';
import { BatchFeaturesSchema, BatchStaleSchema } from '../../schemas/feature.schema.js';
import { EnableQuerySchema, ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { ArchivedFlagView } from '../../schemas/flag-responses.schema.js';
import { archivedFlags } from '../../queries/flags.query.js';
import { flagSeen } from '../../queries/usage.query.js';
import { archiveFlags, markFlagsStale, toggleFlags } from '../../use-cases/bulk-flags.use-cases.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { archivedFlagRecord } from '../answers/views.js';

const BULK_ENVIRONMENT = '/api/admin/projects/:projectId/bulk_features/environments/:environment';

export const bulkFeatureRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/stale', tag: 'Features', permission: 'UPDATE_FEATURE',
    summary: 'Mark the listed flags stale or not stale (unknown and archived names are ignored)', params: ProjectParamsSchema, body: BatchStaleSchema,
    success: { status: 202, description: 'No body' },
    handle: ({ params, body, principal, registry }) => markFlagsStale(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/archive', tag: 'Features', permission: 'DELETE_FEATURE',
    summary: 'Archive the listed flags (unknown and archived names are ignored)', params: ProjectParamsSchema, body: BatchFeaturesSchema,
    success: { status: 202, description: 'No body' }, errors: ['InvalidOperationError'],
    handle: ({ params, body, principal, registry }) => archiveFlags(registry, inputOf(params, { features: body.features }), principal),
  }),
  defineRoute({
    method: 'post', path: `${BULK_ENVIRONMENT}/on`, tag: 'Toggles', permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Enable the listed flags in an environment, all or none (`shouldActivateDisabledStrategies=true`: their disabled strategies too)', params: ProjectEnvironmentParamsSchema, query: EnableQuerySchema, body: BatchFeaturesSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'InvalidOperationError'],
    handle: ({ params, query, body, principal, registry }) =>
      toggleFlags(registry, inputOf(params, { features: body.features, enabled: true, activateDisabled: query.shouldActivateDisabledStrategies === 'true' }), principal),
  }),
  defineRoute({
    method: 'post', path: `${BULK_ENVIRONMENT}/off`, tag: 'Toggles', permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Disable the listed flags in an environment, all or none', params: ProjectEnvironmentParamsSchema, body: BatchFeaturesSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError'],
    handle: ({ params, body, principal, registry }) => toggleFlags(registry, inputOf(params, { features: body.features, enabled: false }), principal),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/archive/features/:projectId', tag: 'Features', permission: 'READ',
    summary: 'List the archived flags of a project (Unleash 6.10 getArchivedFeaturesByProjectId)', params: ProjectParamsSchema,
    success: { status: 200, description: '`{version: 2, features: [archived flag]}`', schema: v.object({ version: v.literal(2), features: v.array(ArchivedFlagView) }) },
    handle: ({ project }) => archivedFlags(project().state),
    view: (flags, { params, registry }) => ({ version: 2 as const, features: flags.map((f) => archivedFlagRecord(f, params.projectId, flagSeen(registry, params.projectId, f.name))) }),
  }),
];
