/** The service's environments: list, read, create, update, enable/disable, sort order, delete, validate. */
import { environmentByName, listEnvironments, projectEnvironments, validateEnvironmentName } from '../../queries/environments.query.js';
import { EnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import {
  CreateEnvironmentSchema, EnvironmentSortOrderSchema, UpdateEnvironmentSchema, ValidateEnvironmentSchema,
} from '../../schemas/project.schema.js';
import {
  createEnvironment, deleteEnvironment, sortEnvironments, toggleEnvironment, updateEnvironment,
} from '../../use-cases/environments.use-cases.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { EnvironmentListView, EnvironmentView, ListedEnvironmentView, ProjectEnvironmentListView } from '../answers/views.js';

const ONE = '/api/admin/environments/:name';

export const environmentRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/environments', tag: 'Environments', permission: 'READ',
    summary: 'List environments in sort order, with the projects that have each, its API tokens and the flags enabled there',
    success: { status: 200, description: '`{version: 1, environments}`', schema: EnvironmentListView },
    handle: ({ c, registry }) => c.json({ version: 1, environments: listEnvironments(registry) }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/environments/project/:projectId', tag: 'Environments', permission: 'READ',
    summary: 'Every environment as one project sees it (`visible` when the project has it)', params: ProjectParamsSchema,
    success: { status: 200, description: '`{version: 1, environments}`', schema: ProjectEnvironmentListView }, errors: ['NotFoundError'],
    handle: ({ c, project, registry }) => c.json({ version: 1, environments: projectEnvironments(registry, project().state) }),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/environments', tag: 'Environments', permission: 'ADMIN',
    summary: 'Create an environment (without `sortOrder`: after every existing one)', body: CreateEnvironmentSchema,
    success: { status: 201, description: 'The environment', schema: EnvironmentView }, errors: ['NameExistsError', 'ExceedsLimitError'],
    handle: ({ body, principal, registry }) => createEnvironment(registry, body, principal),
    view: (environment) => environment,
  }),
  defineRoute({
    method: 'post', path: '/api/admin/environments/validate', tag: 'Environments', permission: 'ADMIN',
    summary: 'Check that a name is free for a new environment (409 when taken)', body: ValidateEnvironmentSchema,
    success: { status: 200, description: 'No body' }, errors: ['NameExistsError'],
    handle: ({ body, registry }) => validateEnvironmentName(registry, body.name),
  }),
  defineRoute({
    method: 'put', path: '/api/admin/environments/sort-order', tag: 'Environments', permission: 'ADMIN',
    summary: 'Set the sort order of the named environments (others keep theirs); every name must exist', body: EnvironmentSortOrderSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ body, principal, registry }) => sortEnvironments(registry, { order: body }, principal),
  }),
  defineRoute({
    method: 'put', path: '/api/admin/environments/update/:name', tag: 'Environments', permission: 'ADMIN',
    summary: 'Change an environment\'s type and/or sort order', params: EnvironmentParamsSchema, body: UpdateEnvironmentSchema,
    success: { status: 200, description: 'The environment', schema: EnvironmentView }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, body, principal, registry }) => updateEnvironment(registry, { name: params.name, ...body }, principal),
    view: (environment) => environment,
  }),
  defineRoute({
    method: 'get', path: ONE, tag: 'Environments', permission: 'READ',
    summary: 'Get one environment', params: EnvironmentParamsSchema,
    success: { status: 200, description: 'The environment', schema: ListedEnvironmentView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => environmentByName(registry, params.name),
    view: (environment) => environment,
  }),
  defineRoute({
    method: 'post', path: `${ONE}/on`, tag: 'Environments', permission: 'ADMIN',
    summary: 'Enable an environment (it may then be added to projects)', params: EnvironmentParamsSchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => toggleEnvironment(registry, { name: params.name, enabled: true }, principal),
  }),
  defineRoute({
    method: 'post', path: `${ONE}/off`, tag: 'Environments', permission: 'ADMIN',
    summary: 'Disable an environment: not offered to new projects nor addable to one; projects that have it keep it', params: EnvironmentParamsSchema,
    success: { status: 204, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => toggleEnvironment(registry, { name: params.name, enabled: false }, principal),
  }),
  defineRoute({
    method: 'delete', path: ONE, tag: 'Environments', permission: 'ADMIN',
    summary: 'Delete an environment no flag uses (409 naming the projects whose flags do, or the tokens scoped to it)', params: EnvironmentParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError', 'Unavailable'],
    handle: ({ params, principal, registry }) => deleteEnvironment(registry, params, principal),
  }),
];
