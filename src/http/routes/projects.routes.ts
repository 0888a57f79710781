import * as v from 'valibot';
import { CreateProjectSchema, ProjectEnvironmentSchema } from '../../schemas/project.schema.js';
import { ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { PROJECT_OWNER, ROOT_ADMIN } from '../../domain/roles.js';
import type { ProjectMeta } from '../../domain/types.js';
import type { Principal } from '../../auth/permissions.js';
import type { ServiceState } from '../../domain/service-state.js';
import { apiError } from '../errors.js';
import { sendJson } from '../gzip.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { orderedEnvironments } from '../views.js';

/**
 * The first Owner of a new project: the user who creates it, or, for an admin token, the root Admin with
 * the lowest id (so "a project always has an Owner" holds from the start).
 */
function firstOwner(principal: Principal, service: ServiceState): Record<string, number> {
  if (principal.kind === 'user') return { [String(principal.user.id)]: PROJECT_OWNER };
  const admin = Object.values(service.users).filter((u) => u.rootRole === ROOT_ADMIN).sort((a, b) => a.id - b.id)[0];
  return admin ? { [String(admin.id)]: PROJECT_OWNER } : {};
}

/** Projects, their overview (seed 4.1) and which environments they use. */
export const projectRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects', tag: 'Projects', permission: 'READ',
    summary: 'List projects', success: { status: 200, description: '`{version: 1, projects}`' },
    handle: ({ c, deps }) => {
      const now = Date.now();
      const projects = deps.registry.projectIds().map((id) => {
        const state = deps.registry.project(id)!.state;
        let featureCount = 0;
        for (const flag of state.flags.values()) if (!flag.archived) featureCount += 1;
        return {
          id, name: state.meta.name, description: state.meta.description, createdAt: state.meta.createdAt,
          health: deps.summaries.healthOf(state, now), featureCount, memberCount: Object.keys(state.meta.members).length,
        };
      });
      return c.json({ version: 1, projects });
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects', tag: 'Projects', permission: 'ADMIN',
    summary: 'Create a project connected to every enabled environment', body: CreateProjectSchema,
    success: { status: 201, description: 'The project' }, errors: ['NameExistsError'],
    handle: async ({ c, body, principal, by, deps, unwrap }) => {
      const service = deps.registry.service.state;
      const meta: ProjectMeta = {
        id: body.id, name: body.name, description: body.description, createdAt: new Date().toISOString(),
        environments: service.environments.filter((e) => e.enabled).map((e) => e.name),
        defaultStrategies: {}, members: firstOwner(principal, service),
      };
      const created = unwrap<ProjectMeta>(await deps.registry.createProject(meta, by));
      return c.json({ id: created.id, name: created.name, description: created.description, createdAt: created.createdAt, environments: created.environments }, 201);
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId', tag: 'Projects', permission: 'READ',
    summary: 'Project overview: details, active flags with their environments, health and members', params: ProjectParamsSchema,
    success: { status: 200, description: 'The overview (seed 2.1)' }, errors: ['NotFoundError'],
    handle: ({ c, project, deps }) => {
      const state = project().state;
      const service = deps.registry.service;
      const body = deps.summaries.overview(state, service.state.environments, service.seq, Date.now(), (health) => ({
        name: state.meta.name,
        description: state.meta.description,
        health,
        members: Object.keys(state.meta.members).length,
        version: 1,
        environments: orderedEnvironments(service.state.environments, state.meta.environments)
          .map((e) => ({ environment: e.name, defaultStrategy: state.meta.defaultStrategies[e.name] ?? null })),
      }));
      return sendJson(c, body, deps.gzip);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/environments', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Connect an environment to the project', params: ProjectParamsSchema, body: ProjectEnvironmentSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: async ({ c, body, run, deps }) => {
      if (!deps.registry.service.state.environments.some((e) => e.name === body.environment)) {
        throw apiError('NotFoundError', `Could not find environment "${body.environment}"`);
      }
      await run({ type: 'environment.connect', environment: body.environment });
      return c.body(null, 200);
    },
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/projects/:projectId/environments/:environment', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Disconnect an environment from the project', params: ProjectEnvironmentParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: async ({ c, params, run }) => {
      await run({ type: 'environment.disconnect', environment: (params as v.InferOutput<typeof ProjectEnvironmentParamsSchema>).environment });
      return c.body(null, 200);
    },
  }),
];
