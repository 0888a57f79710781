import { CreateEnvironmentSchema } from '../../schemas/project.schema.js';
import type { Environment } from '../../domain/service-state.js';
import { defineRoute, type RouteSpec } from '../route.js';

/** The service's environments. */
export const environmentRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/environments', tag: 'Environments', permission: 'READ',
    summary: 'List environments in sort order', success: { status: 200, description: '`{version: 1, environments}`' },
    handle: ({ c, deps }) => c.json({ version: 1, environments: deps.registry.service.state.environments }),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/environments', tag: 'Environments', permission: 'ADMIN',
    summary: 'Create an environment', body: CreateEnvironmentSchema,
    success: { status: 201, description: 'The environment' }, errors: ['NameExistsError'],
    handle: async ({ c, body, deps, runService }) => {
      const highest = deps.registry.service.state.environments.reduce((max, e) => Math.max(max, e.sortOrder), 0);
      const environment = await runService<Environment>({
        type: 'environment.create',
        environment: { name: body.name, type: body.type, sortOrder: body.sortOrder ?? highest + 1, enabled: true, protected: false },
      });
      return c.json(environment, 201);
    },
  }),
];
