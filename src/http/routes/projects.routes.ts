/** Projects, their overview (seed 4.1) and which environments they use. */
import { CreateProjectSchema, ProjectEnvironmentSchema } from '../../schemas/project.schema.js';
import { ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { projectUsage } from '../../queries/usage.queries.js';
import { connectEnvironment, createProject, disconnectEnvironment } from '../../use-cases/projects.use-cases.js';
import { sendJson } from '../gzip.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { OverviewView, ProjectListView, ProjectView, orderedEnvironments } from '../views.js';

export const projectRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects', tag: 'Projects', permission: 'READ',
    summary: 'List projects', success: { status: 200, description: '`{version: 1, projects}`', schema: ProjectListView },
    handle: ({ c, registry, deps }) => {
      const now = Date.now();
      const projects = registry.projectIds().map((id) => {
        const state = registry.project(id)!.state;
        let featureCount = 0;
        for (const flag of state.flags.values()) if (!flag.archived) featureCount += 1;
        return {
          id, name: state.meta.name, description: state.meta.description, createdAt: state.meta.createdAt,
          health: deps.health.of(state, now), featureCount, memberCount: Object.keys(state.meta.members).length,
        };
      });
      return c.json({ version: 1, projects });
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects', tag: 'Projects', permission: 'ADMIN',
    summary: 'Create a project connected to every enabled environment', body: CreateProjectSchema,
    success: { status: 201, description: 'The project', schema: ProjectView }, errors: ['NameExistsError', 'InvalidOperationError'],
    handle: ({ body, principal, registry }) => createProject(registry, body, principal),
    view: (meta) => ({ id: meta.id, name: meta.name, description: meta.description, createdAt: meta.createdAt, environments: meta.environments }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId', tag: 'Projects', permission: 'READ',
    summary: 'Project overview: details, active flags with their environments, health and members', params: ProjectParamsSchema,
    success: { status: 200, description: 'The overview (seed 2.1)', schema: OverviewView }, errors: ['NotFoundError'],
    handle: ({ c, params, project, registry, deps }) => {
      const state = project().state;
      const service = registry.service;
      const usage = projectUsage(registry, params.projectId);
      const body = deps.summaries.overview(state, service.state.environments, service.seq, usage, deps.health.of(state, Date.now()), (health) => ({
        name: state.meta.name,
        description: state.meta.description,
        health,
        members: Object.keys(state.meta.members).length,
        version: 1,
        environments: orderedEnvironments(service.state.environments, state.meta.environments)
          .map((e) => ({ environment: e.name, defaultStrategy: (Object.hasOwn(state.meta.defaultStrategies, e.name) ? state.meta.defaultStrategies[e.name] : undefined) ?? null })),
      }));
      return sendJson(c, body, deps.gzip);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects/:projectId/environments', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Connect an environment to the project', params: ProjectParamsSchema, body: ProjectEnvironmentSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => connectEnvironment(registry, { ...params, ...body }, principal),
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/projects/:projectId/environments/:environment', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Disconnect an environment from the project', params: ProjectEnvironmentParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, principal, registry }) => disconnectEnvironment(registry, params, principal),
  }),
];
