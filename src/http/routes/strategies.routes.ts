/** Strategies of a flag in one environment (docs/admin-contract.md §4.9 to §4.12). */
import { FeatureEnvironmentParamsSchema, StrategyParamsSchema } from '../../schemas/params.schema.js';
import { JsonPatchSchema } from '../../schemas/patch.schema.js';
import { StrategySchema } from '../../schemas/strategy.schema.js';
import { CopyStrategiesSchema, StrategySortOrderSchema } from '../../schemas/strategy-order.schema.js';
import { flagEnvironment, flagInEnvironment, strategyById } from '../../queries/flags.query.js';
import { addStrategy, copyStrategies, deleteStrategy, patchStrategy, setStrategySortOrder, updateStrategy } from '../../use-cases/strategies.use-cases.js';
import type { ErrorKind } from '../errors.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { StrategyView, strategiesInOrder } from '../answers/views.js';
import * as v from 'valibot';

const STRATEGIES = '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies';
const ERRORS: ErrorKind[] = ['NotFoundError', 'ArchivedFeatureError', 'PreconditionFailed'];

export const strategyRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment', tag: 'Strategies', permission: 'READ',
    summary: 'A flag in one environment: whether it is enabled and its strategies (Unleash 6.10 getFeatureEnvironment)', params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: '`{name, environment, enabled, strategies}`', schema: v.object({ name: v.string(), environment: v.string(), enabled: v.boolean(), strategies: v.array(StrategyView) }) },
    errors: ['NotFoundError'],
    handle: ({ params, project }) => flagEnvironment(project().state, params.featureName, params.environment),
    view: (entry) => ({ ...entry, strategies: strategiesInOrder(entry.strategies) }),
  }),
  defineRoute({
    method: 'get', path: STRATEGIES, tag: 'Strategies', permission: 'READ',
    summary: 'List the strategies of a flag in an environment', params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: 'Array of strategies in sortOrder', schema: v.array(StrategyView) }, errors: ['NotFoundError'],
    handle: ({ params, project }) => flagInEnvironment(project().state, params.featureName, params.environment),
    view: ({ strategies }) => strategiesInOrder(strategies),
  }),
  defineRoute({
    method: 'post', path: STRATEGIES, tag: 'Strategies', permission: 'CREATE_FEATURE_STRATEGY', conditional: true,
    summary: 'Add a strategy to a flag in an environment', params: FeatureEnvironmentParamsSchema, body: StrategySchema,
    success: { status: 200, description: 'The stored strategy', schema: StrategyView }, errors: ERRORS,
    handle: ({ params, body, ifMatch, principal, registry }) => addStrategy(registry, inputOf(params, { ifMatch, strategy: body }), principal),
    view: (strategy) => strategy,
  }),
  defineRoute({
    method: 'post', path: `${STRATEGIES}/set-sort-order`, tag: 'Strategies', permission: 'UPDATE_FEATURE_STRATEGY', conditional: true,
    summary: 'Set the sortOrder of the listed strategies (Unleash 6.10 setStrategySortOrder)', params: FeatureEnvironmentParamsSchema, body: StrategySortOrderSchema,
    success: { status: 200, description: 'No body' }, errors: ERRORS,
    handle: ({ params, body, ifMatch, principal, registry }) => setStrategySortOrder(registry, inputOf(params, { ifMatch, order: body }), principal),
  }),
  defineRoute({
    method: 'post', path: `${STRATEGIES}/copy`, tag: 'Strategies', permission: 'CREATE_FEATURE_STRATEGY', conditional: true,
    summary: "Copy the flag's strategies (all, or `strategyIds`) from `fromEnvironment` to this environment (flagpole's; Unleash 6.10's UI adds them one by one)",
    params: FeatureEnvironmentParamsSchema, body: CopyStrategiesSchema,
    success: { status: 200, description: 'The copies, in order', schema: v.array(StrategyView) }, errors: ERRORS,
    handle: ({ params, body, ifMatch, principal, registry }) => copyStrategies(registry, inputOf(params, body, { ifMatch }), principal),
    view: (strategies) => strategies,
  }),
  defineRoute({
    method: 'get', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'READ',
    summary: 'Read one strategy of a flag in an environment', params: StrategyParamsSchema,
    success: { status: 200, description: 'The strategy', schema: StrategyView }, errors: ['NotFoundError'],
    handle: ({ params, project }) => strategyById(project().state, params.featureName, params.environment, params.strategyId),
    view: (strategy) => strategy,
  }),
  defineRoute({
    method: 'put', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'UPDATE_FEATURE_STRATEGY', conditional: true,
    summary: 'Replace a strategy (keeps its id and sortOrder)', params: StrategyParamsSchema, body: StrategySchema,
    success: { status: 200, description: 'The stored strategy', schema: StrategyView }, errors: ERRORS,
    handle: ({ params, body, ifMatch, principal, registry }) => updateStrategy(registry, inputOf(params, { ifMatch, strategy: body }), principal),
    view: (strategy) => strategy,
  }),
  defineRoute({
    method: 'patch', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'UPDATE_FEATURE_STRATEGY', conditional: true,
    summary: 'Apply RFC 6902 operations to a strategy', params: StrategyParamsSchema, body: JsonPatchSchema,
    success: { status: 200, description: 'The stored strategy', schema: StrategyView }, errors: [...ERRORS, 'PatchTestFailed'],
    handle: ({ params, body, ifMatch, principal, registry }) => patchStrategy(registry, inputOf(params, { ifMatch, operations: body }), principal),
    view: (strategy) => strategy,
  }),
  defineRoute({
    method: 'delete', path: `${STRATEGIES}/:strategyId`, tag: 'Strategies', permission: 'DELETE_FEATURE_STRATEGY', conditional: true,
    summary: 'Delete a strategy; the environment is disabled if it was the last enabled one', params: StrategyParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ERRORS,
    handle: ({ params, ifMatch, principal, registry }) => deleteStrategy(registry, inputOf(params, { ifMatch }), principal),
  }),
];
