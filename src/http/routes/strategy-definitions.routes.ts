/**
 * Strategy definitions (docs/api-decisions.md "Context fields and strategy definitions"; Unleash 6.10's
 * `/api/admin/strategies`): the built-in ones and custom ones with parameters, which flags may then use.
 */
import {
  CreateStrategyDefinitionSchema, StrategyDefinitionActionParamsSchema, StrategyDefinitionParamsSchema, UpdateStrategyDefinitionSchema,
} from '../../schemas/definition.schema.js';
import { strategyDefinitionByName, strategyDefinitions } from '../../queries/definitions.query.js';
import {
  createStrategyDefinition, deleteStrategyDefinition, deprecateStrategyDefinition, updateStrategyDefinition,
} from '../../use-cases/definitions.use-cases.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { StrategyDefinitionView, StrategyDefinitionsView } from '../answers/views.js';

const ONE = '/api/admin/strategies/:name';

export const strategyDefinitionRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/strategies', tag: 'Strategy definitions', permission: 'READ',
    summary: 'List the strategy definitions, built-in ones first', success: { status: 200, description: '`{version: 1, strategies}`', schema: StrategyDefinitionsView },
    handle: ({ c, registry }) => c.json({ version: 1, strategies: strategyDefinitions(registry) }),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/strategies', tag: 'Strategy definitions', permission: 'UPDATE_DEFINITIONS',
    summary: 'Create a custom strategy definition', body: CreateStrategyDefinitionSchema,
    success: { status: 201, description: 'The strategy definition', schema: StrategyDefinitionView }, errors: ['NameExistsError', 'ExceedsLimitError'],
    handle: async ({ c, body, principal, registry }) => {
      const { name, title, description, parameters } = body;
      const result = await createStrategyDefinition(registry, { name, title, displayName: null, description, editable: true, deprecated: false, parameters }, principal);
      if (!result.ok) return result;
      c.header('Location', `strategies/${name}`);
      return result;
    },
    view: (definition) => definition,
  }),
  defineRoute({
    method: 'get', path: ONE, tag: 'Strategy definitions', permission: 'READ',
    summary: 'Get a strategy definition', params: StrategyDefinitionParamsSchema,
    success: { status: 200, description: 'The strategy definition', schema: StrategyDefinitionView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => strategyDefinitionByName(registry, params.name),
    view: (definition) => definition,
  }),
  defineRoute({
    method: 'put', path: ONE, tag: 'Strategy definitions', permission: 'UPDATE_DEFINITIONS',
    summary: 'Replace the title, description and parameters of a custom strategy definition (a built-in one: 400)',
    params: StrategyDefinitionParamsSchema, body: UpdateStrategyDefinitionSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => {
      if (body.name !== undefined && body.name !== params.name) {
        throw apiError('ValidationError', `"name": must equal the strategy in the path ("${params.name}"); strategies cannot be renamed`);
      }
      const { title, description, parameters } = body;
      return updateStrategyDefinition(registry, { name: params.name, title, displayName: null, description, editable: true, deprecated: false, parameters }, principal);
    },
  }),
  defineRoute({
    method: 'delete', path: ONE, tag: 'Strategy definitions', permission: 'UPDATE_DEFINITIONS',
    summary: 'Delete a custom strategy definition (a built-in one: 400); flags keep strategies that name it', params: StrategyDefinitionParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => deleteStrategyDefinition(registry, params.name, principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/strategies/:strategyName/deprecate', tag: 'Strategy definitions', permission: 'UPDATE_DEFINITIONS',
    summary: 'Deprecate a strategy definition (built-in ones too); flags may still use it', params: StrategyDefinitionActionParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => deprecateStrategyDefinition(registry, params.strategyName, true, principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/strategies/:strategyName/reactivate', tag: 'Strategy definitions', permission: 'UPDATE_DEFINITIONS',
    summary: 'Reactivate a deprecated strategy definition', params: StrategyDefinitionActionParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => deprecateStrategyDefinition(registry, params.strategyName, false, principal),
  }),
];
