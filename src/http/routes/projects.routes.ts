/** Projects (create, update, delete), their overview (docs/admin-contract.md §4.1) and which environments they use. */
import type { ProjectMeta } from '../../use-cases/projects.use-cases.js';
import { CreateProjectSchema, ProjectEnvironmentSchema, UpdateProjectSchema } from '../../schemas/project.schema.js';
import { ProjectEnvironmentParamsSchema, ProjectParamsSchema } from '../../schemas/params.schema.js';
import { projectUsage } from '../../queries/usage.query.js';
import { activeFlagCount } from '../../queries/flags.query.js';
import { connectEnvironment, createProject, deleteProject, disconnectEnvironment, updateProject } from '../../use-cases/projects.use-cases.js';
import { sendJson } from '../answers/gzip.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { OverviewView, ProjectListView, ProjectView, orderedEnvironments } from '../answers/views.js';

/** A project's settings as answered (records from before them read as Unleash's defaults). */
const settingsOf = (meta: ProjectMeta) => ({ mode: meta.mode ?? 'open', defaultStickiness: meta.defaultStickiness ?? 'default' });

/** The body of a created or updated project. */
const projectView = (meta: ProjectMeta) => ({
  id: meta.id, name: meta.name, description: meta.description, createdAt: meta.createdAt, updatedAt: meta.updatedAt ?? null,
  environments: meta.environments, ...settingsOf(meta),
});

export const projectRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/projects', tag: 'Projects', permission: 'READ',
    summary: 'List projects', success: { status: 200, description: '`{version: 1, projects}`', schema: ProjectListView },
    handle: ({ c, registry, deps }) => {
      const now = Date.now();
      const projects = registry.projectIds().map((id) => {
        const state = registry.project(id)!.state;
        return {
          id, name: state.meta.name, description: state.meta.description, createdAt: state.meta.createdAt,
          health: deps.health.of(state, now), featureCount: activeFlagCount(state), memberCount: Object.keys(state.meta.members).length, ...settingsOf(state.meta),
        };
      });
      return c.json({ version: 1, projects });
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/projects', tag: 'Projects', permission: 'ADMIN',
    summary: 'Create a project connected to the environments named (absent: every enabled one)', body: CreateProjectSchema,
    success: { status: 201, description: 'The project', schema: ProjectView }, errors: ['NameExistsError', 'InvalidOperationError', 'ExceedsLimitError'],
    handle: ({ body, principal, registry }) => createProject(registry, body, principal),
    view: projectView,
  }),
  defineRoute({
    method: 'put', path: '/api/admin/projects/:projectId', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Change a project\'s name, description, mode and default stickiness (absent fields are kept)', params: ProjectParamsSchema, body: UpdateProjectSchema,
    success: { status: 200, description: 'The project', schema: ProjectView }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry }) => updateProject(registry, { ...body, projectId: params.projectId }, principal),
    view: projectView,
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/projects/:projectId', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Delete a project without active flags (never `default`); its archived flags, and the tokens scoped to it alone, go with it',
    params: ProjectParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, principal, registry }) => deleteProject(registry, params, principal),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/projects/:projectId', tag: 'Projects', permission: 'READ',
    summary: 'Project overview: details, active flags with their environments, health and members', params: ProjectParamsSchema,
    success: { status: 200, description: 'The overview (docs/admin-contract.md §2.1)', schema: OverviewView }, errors: ['NotFoundError'],
    handle: ({ c, params, project, registry, deps }) => {
      const state = project().state;
      const service = registry.service;
      const usage = projectUsage(registry, params.projectId);
      const body = deps.summaries.overview(state, service.state.environments, service.seq, usage, deps.health.of(state, Date.now()), (health) => ({
        name: state.meta.name,
        description: state.meta.description,
        ...settingsOf(state.meta),
        createdAt: state.meta.createdAt,
        updatedAt: state.meta.updatedAt ?? null,
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
    summary: 'Connect an enabled environment to the project: every flag, archived ones too, gets an entry there, disabled', params: ProjectParamsSchema, body: ProjectEnvironmentSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'NameExistsError', 'InvalidOperationError'],
    handle: ({ params, body, principal, registry }) => connectEnvironment(registry, inputOf(params, body), principal),
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/projects/:projectId/environments/:environment', tag: 'Projects', permission: 'UPDATE_PROJECT',
    summary: 'Disconnect an environment from the project: its flags\' entries there, strategies included, are removed (not the last environment)', params: ProjectEnvironmentParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'InvalidOperationError'],
    handle: ({ params, principal, registry }) => disconnectEnvironment(registry, params, principal),
  }),
];
