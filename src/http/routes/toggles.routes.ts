/** Switching a flag in an environment, and the environment's default strategy (docs/admin-contract.md §4.13, §4.16). */
import { DefaultStrategyParamsSchema, EnableQuerySchema, FeatureEnvironmentParamsSchema } from '../../schemas/params.schema.js';
import { StrategySchema } from '../../schemas/strategy.schema.js';
import { disableFlag, enableFlag, setDefaultStrategy } from '../../use-cases/toggles.use-cases.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';

const ENVIRONMENT = '/api/admin/projects/:projectId/features/:featureName/environments/:environment';

export const toggleRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: `${ENVIRONMENT}/on`, tag: 'Toggles', permission: 'UPDATE_FEATURE_ENVIRONMENT', conditional: true,
    summary: 'Enable a flag in an environment (adds the default strategy when it has no enabled one)',
    params: FeatureEnvironmentParamsSchema, query: EnableQuerySchema,
    success: { status: 200, description: 'No body; `ETag` is the flag version' },
    errors: ['NotFoundError', 'ArchivedFeatureError', 'InvalidOperationError', 'PreconditionFailed'],
    handle: ({ params, query, ifMatch, principal, registry }) =>
      enableFlag(registry, inputOf(params, { ifMatch, activateDisabled: query.shouldActivateDisabledStrategies === 'true' }), principal),
  }),
  defineRoute({
    method: 'post', path: `${ENVIRONMENT}/off`, tag: 'Toggles', permission: 'UPDATE_FEATURE_ENVIRONMENT', conditional: true,
    summary: 'Disable a flag in an environment', params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: 'No body; `ETag` is the flag version' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'],
    handle: ({ params, ifMatch, principal, registry }) => disableFlag(registry, inputOf(params, { ifMatch }), principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/environments/:environment/default-strategy', tag: 'Projects',
    permission: 'UPDATE_PROJECT', summary: 'Set the default strategy of an environment (`*`: every environment of the project)',
    params: DefaultStrategyParamsSchema, body: StrategySchema,
    success: { status: 200, description: 'The stored strategy request', schema: StrategySchema }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => setDefaultStrategy(registry, inputOf(params, { strategy: body }), principal),
    view: (stored) => stored,
  }),
];
