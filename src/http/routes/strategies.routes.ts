import { JsonPatchSchema } from '../../schemas/patch.schema.js';
import { FeatureEnvironmentParamsSchema, StrategyParamsSchema } from '../../schemas/params.schema.js';
import { StrategySchema } from '../../schemas/strategy.schema.js';
import type { Strategy } from '../../domain/types.js';
import { etagOf, parseIfMatch } from '../body.js';
import { apiError } from '../errors.js';
import { defineRoute, type Call, type RouteSpec } from '../route.js';

const STRATEGIES = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies';
const ERRORS = ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'];

/** The flag's new version after a strategy change, as its ETag. */
function tagWithVersion(call: Call<{ featureName: string }, unknown>): void {
  const flag = call.project().state.flags.get(call.params.featureName);
  if (flag) call.c.header('ETag', etagOf(flag.version));
}

/** Seed 4.9 to 4.12: strategies of a flag in one environment. */
export const strategyRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: STRATEGIES, tag: 'Strategies', permission: 'READ',
    summary: 'List the strategies of a flag in an environment', params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: 'Array of strategies in sortOrder' }, errors: ['NotFoundError'],
    handle: ({ c, params, project }) => {
      const state = project().state;
      const flag = state.flags.get(params.featureName);
      if (!flag) throw apiError('NotFoundError', `Could not find feature flag "${params.featureName}" in project "${params.projectId}"`);
      if (!state.meta.environments.includes(params.environment)) throw apiError('NotFoundError', `Environment "${params.environment}" is not enabled for project "${params.projectId}"`);
      return c.json([...(flag.environments[params.environment]?.strategies ?? [])].sort((a, b) => a.sortOrder - b.sortOrder));
    },
  }),
  defineRoute({
    method: 'post', path: STRATEGIES, tag: 'Strategies', permission: 'CREATE_FEATURE_STRATEGY',
    summary: 'Add a strategy to a flag in an environment', params: FeatureEnvironmentParamsSchema, body: StrategySchema,
    success: { status: 200, description: 'The stored strategy' }, errors: ERRORS,
    handle: async (call) => {
      const { c, params, body, run } = call;
      const strategy = await run<Strategy>({
        type: 'strategy.add', feature: params.featureName, environment: params.environment,
        ifMatch: parseIfMatch(c.req.header('if-match')), strategy: body,
      });
      tagWithVersion(call);
      return c.json(strategy);
    },
  }),
  defineRoute({
    method: 'put', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'UPDATE_FEATURE_STRATEGY',
    summary: 'Replace a strategy (keeps its id and sortOrder)', params: StrategyParamsSchema, body: StrategySchema,
    success: { status: 200, description: 'The stored strategy' }, errors: ERRORS,
    handle: async (call) => {
      const { c, params, body, run } = call;
      const strategy = await run<Strategy>({
        type: 'strategy.update', feature: params.featureName, environment: params.environment, strategyId: params.strategyId,
        ifMatch: parseIfMatch(c.req.header('if-match')), strategy: body,
      });
      tagWithVersion(call);
      return c.json(strategy);
    },
  }),
  defineRoute({
    method: 'patch', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'UPDATE_FEATURE_STRATEGY',
    summary: 'Apply RFC 6902 operations to a strategy', params: StrategyParamsSchema, body: JsonPatchSchema,
    success: { status: 200, description: 'The stored strategy' }, errors: [...ERRORS, 'PatchTestFailed'],
    handle: async (call) => {
      const { c, params, body, run } = call;
      const strategy = await run<Strategy>({
        type: 'strategy.patch', feature: params.featureName, environment: params.environment, strategyId: params.strategyId,
        ifMatch: parseIfMatch(c.req.header('if-match')), operations: body,
      });
      tagWithVersion(call);
      return c.json(strategy);
    },
  }),
  defineRoute({
    method: 'delete', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'DELETE_FEATURE_STRATEGY',
    summary: 'Delete a strategy; the environment is disabled if it was the last enabled one', params: StrategyParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ERRORS,
    handle: async (call) => {
      const { c, params, run } = call;
      await run({
        type: 'strategy.delete', feature: params.featureName, environment: params.environment, strategyId: params.strategyId,
        ifMatch: parseIfMatch(c.req.header('if-match')),
      });
      tagWithVersion(call);
      return c.body(null, 200);
    },
  }),
];
