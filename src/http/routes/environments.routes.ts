/** The service's environments. */
import { CreateEnvironmentSchema } from '../../schemas/project.schema.js';
import { createEnvironment } from '../../use-cases/environments.use-cases.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { EnvironmentListView, EnvironmentView } from '../views.js';

export const environmentRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/environments', tag: 'Environments', permission: 'READ',
    summary: 'List environments in sort order', success: { status: 200, description: '`{version: 1, environments}`', schema: EnvironmentListView },
    handle: ({ c, registry }) => c.json({ version: 1, environments: registry.service.state.environments }),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/environments', tag: 'Environments', permission: 'ADMIN',
    summary: 'Create an environment (without `sortOrder`: after every existing one)', body: CreateEnvironmentSchema,
    success: { status: 201, description: 'The environment', schema: EnvironmentView }, errors: ['NameExistsError'],
    handle: ({ body, principal, registry }) => createEnvironment(registry, body, principal),
    view: (environment) => environment,
  }),
];
