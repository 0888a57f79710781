import { DefaultStrategyParamsSchema, FeatureEnvironmentParamsSchema } from '../../schemas/params.schema.js';
import { StrategySchema } from '../../schemas/strategy.schema.js';
import { parseIfMatch } from '../body.js';
import { defineRoute, type RouteSpec } from '../route.js';

const ENVIRONMENT = '/api/admin/projects/:projectId/features/:featureName/environments/:environment';

/** Seed 4.13 and 4.16: switching a flag in an environment, and the environment's default strategy. */
export const toggleRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: `${ENVIRONMENT}/on`, tag: 'Toggles', permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Enable a flag in an environment (adds the default strategy when it has no enabled one)',
    params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: 'No body' },
    errors: ['NotFoundError', 'ArchivedFeatureError', 'InvalidOperationError', 'PreconditionFailed'],
    handle: async ({ c, params, run }) => {
      await run({ type: 'flag.enable', feature: params.featureName, environment: params.environment, ifMatch: parseIfMatch(c.req.header('if-match')) });
      return c.body(null, 200);
    },
  }),
  defineRoute({
    method: 'post', path: `${ENVIRONMENT}/off`, tag: 'Toggles', permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Disable a flag in an environment', params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'],
    handle: async ({ c, params, run }) => {
      await run({ type: 'flag.disable', feature: params.featureName, environment: params.environment, ifMatch: parseIfMatch(c.req.header('if-match')) });
      return c.body(null, 200);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/environments/:environment/default-strategy', tag: 'Projects',
    permission: 'UPDATE_PROJECT', summary: 'Set the default strategy of an environment (`*`: every environment of the project)',
    params: DefaultStrategyParamsSchema, body: StrategySchema,
    success: { status: 200, description: 'The stored strategy request' }, errors: ['NotFoundError'],
    handle: async ({ c, params, body, run }) => {
      const stored = await run({ type: 'default-strategy.set', environment: params.environment, strategy: body });
      return c.json(stored);
    },
  }),
];
