/**
 * Flag dependencies (docs/api-decisions.md "Dependencies"; Unleash 6.10's dependent-features routes). Writes
 * need `UPDATE_FEATURE` (Unleash's `UPDATE_FEATURE_DEPENDENCY`, which its Members hold).
 */
import { FeatureParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { CreateDependencySchema, DependencyParamsSchema } from '../../schemas/dependency.schema.js';
import { dependenciesExist, parentVariants, possibleParents } from '../../queries/dependencies.query.js';
import { addDependency, removeDependency } from '../../use-cases/dependencies.use-cases.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';

const FLAG = '/api/admin/projects/:projectId/features/:featureName';
const WRITE_ERRORS = ['NotFoundError', 'ArchivedFeatureError', 'InvalidOperationError', 'ExceedsLimitError'] as const;

export const dependencyRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: `${FLAG}/dependencies`, tag: 'Dependencies', permission: 'UPDATE_FEATURE',
    summary: 'Make the flag depend on a parent of the same project (one level; replaces a dependency on the same parent)',
    params: FeatureParamsSchema, body: CreateDependencySchema,
    success: { status: 200, description: 'No body' }, errors: WRITE_ERRORS,
    handle: ({ params, body, principal, registry }) => addDependency(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'delete', path: `${FLAG}/dependencies/:parent`, tag: 'Dependencies', permission: 'UPDATE_FEATURE',
    summary: 'Remove the dependency on one parent', params: DependencyParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError'],
    handle: ({ params, principal, registry }) => removeDependency(registry, params, principal),
  }),
  defineRoute({
    method: 'delete', path: `${FLAG}/dependencies`, tag: 'Dependencies', permission: 'UPDATE_FEATURE',
    summary: 'Remove every dependency of the flag', params: FeatureParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ArchivedFeatureError'],
    handle: ({ params, principal, registry }) => removeDependency(registry, params, principal),
  }),
  defineRoute({
    method: 'get', path: `${FLAG}/parents`, tag: 'Dependencies', permission: 'READ',
    summary: 'The flags this flag may depend on (names)', params: FeatureParamsSchema,
    success: { status: 200, description: 'An array of flag names' }, errors: ['NotFoundError'],
    handle: ({ params, project }) => possibleParents(project().state, params.featureName),
    view: (names) => names,
  }),
  defineRoute({
    method: 'get', path: `${FLAG}/parent-variants`, tag: 'Dependencies', permission: 'READ',
    summary: 'The variant names a child may require of this flag', params: FeatureParamsSchema,
    success: { status: 200, description: 'An array of variant names' }, errors: ['NotFoundError'],
    handle: ({ params, project }) => parentVariants(project().state, params.featureName),
    view: (names) => names,
  }),
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId/dependencies', tag: 'Dependencies', permission: 'READ',
    summary: 'Whether any flag of the project has a parent', params: ProjectParamsSchema,
    success: { status: 200, description: '`true` or `false`' },
    handle: ({ c, project }) => c.json(dependenciesExist(project().state)),
  }),
];
