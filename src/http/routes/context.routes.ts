/**
 * Context fields (docs/api-decisions.md "Context fields and strategy definitions"; Unleash 6.10's
 * `/api/admin/context`). Service-wide: reads for every admin-API caller, writes for root Admins and Editors.
 */
import {
  ContextFieldNameBodySchema, ContextFieldParamsSchema, CreateContextFieldSchema, LegalValueParamsSchema, LegalValueSchema, UpdateContextFieldSchema,
} from '../../schemas/definition.schema.js';
import { contextFieldByName, contextFields, strategiesUsingContextField } from '../../queries/definitions.query.js';
import { createContextField, deleteContextField, deleteLegalValue, setLegalValue, updateContextField } from '../../use-cases/definitions.use-cases.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { ContextFieldStrategiesView, ContextFieldView, ContextFieldsView } from '../answers/views.js';

const FIELD = '/api/admin/context/:contextField';

export const contextRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/context', tag: 'Context', permission: 'READ',
    summary: 'List the context fields, by sort order', success: { status: 200, description: 'The context fields', schema: ContextFieldsView },
    handle: ({ c, registry }) => c.json(contextFields(registry)),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/context', tag: 'Context', permission: 'UPDATE_DEFINITIONS',
    summary: 'Create a context field', body: CreateContextFieldSchema,
    success: { status: 201, description: 'The context field', schema: ContextFieldView }, errors: ['NameExistsError', 'ExceedsLimitError'],
    handle: async ({ c, body, principal, registry }) => {
      const { createdAt: _c, usedInFeatures: _f, usedInProjects: _p, ...field } = body;
      const result = await createContextField(registry, { ...field, sortOrder: field.sortOrder ?? 0, createdAt: null }, principal);
      if (!result.ok) return result;
      c.header('Location', `context/${result.value.name}`);
      return { ok: true, value: { ...result.value, usedInFeatures: 0, usedInProjects: 0 } };
    },
    view: (field) => field,
  }),
  defineRoute({
    method: 'post', path: '/api/admin/context/validate', tag: 'Context', permission: 'READ',
    summary: 'Check that a context field name is valid and free (200), without creating it', body: ContextFieldNameBodySchema,
    success: { status: 200, description: 'No body' }, errors: ['NameExistsError'],
    handle: ({ c, body, registry }) => {
      if (contextFieldByName(registry, body.name).ok) throw apiError('NameExistsError', `A context field named "${body.name}" already exists`);
      return c.body(null, 200);
    },
  }),
  defineRoute({
    method: 'get', path: FIELD, tag: 'Context', permission: 'READ',
    summary: 'Get a context field', params: ContextFieldParamsSchema,
    success: { status: 200, description: 'The context field', schema: ContextFieldView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => contextFieldByName(registry, params.contextField),
    view: (field) => field,
  }),
  defineRoute({
    method: 'get', path: `${FIELD}/strategies`, tag: 'Context', permission: 'READ',
    summary: 'List the strategies (of every flag, archived ones too) with a constraint on a context field', params: ContextFieldParamsSchema,
    success: { status: 200, description: '`{strategies: [{id, projectId, featureName, strategyName, environment}]}`', schema: ContextFieldStrategiesView },
    errors: ['NotFoundError'],
    handle: ({ params, registry }) => strategiesUsingContextField(registry, params.contextField),
    view: (strategies) => ({ strategies }),
  }),
  defineRoute({
    method: 'put', path: FIELD, tag: 'Context', permission: 'UPDATE_DEFINITIONS',
    summary: 'Replace the description, stickiness, legal values and (when given) sort order of a context field',
    params: ContextFieldParamsSchema, body: UpdateContextFieldSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => {
      if (body.name !== undefined && body.name !== params.contextField) {
        throw apiError('ValidationError', `"name": must equal the context field in the path ("${params.contextField}"); context fields cannot be renamed`);
      }
      const { description, stickiness, legalValues, sortOrder } = body;
      return updateContextField(registry, { name: params.contextField, description, stickiness, legalValues, sortOrder }, principal);
    },
  }),
  defineRoute({
    method: 'post', path: `${FIELD}/legal-values`, tag: 'Context', permission: 'UPDATE_DEFINITIONS',
    summary: 'Add a legal value to a context field, or replace the one with the same value', params: ContextFieldParamsSchema, body: LegalValueSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ExceedsLimitError'],
    handle: ({ params, body, principal, registry }) => setLegalValue(registry, params.contextField, body, principal),
  }),
  defineRoute({
    method: 'delete', path: `${FIELD}/legal-values/:legalValue`, tag: 'Context', permission: 'UPDATE_DEFINITIONS',
    summary: 'Remove a legal value from a context field (one it lacks: 200, nothing changes)', params: LegalValueParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => deleteLegalValue(registry, params.contextField, params.legalValue, principal),
  }),
  defineRoute({
    method: 'delete', path: FIELD, tag: 'Context', permission: 'UPDATE_DEFINITIONS',
    summary: 'Delete a context field (constraints on it stay)', params: ContextFieldParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => deleteContextField(registry, params.contextField, principal),
  }),
];
