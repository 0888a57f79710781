/** @jsxImportSource hono/jsx */
/** The project list (`/projects`), with the new-project form for those who may create projects. */
import type { Context } from 'hono';
import * as v from 'valibot';
import { isAllowed } from '../../../auth/permissions.js';
import { projectSummaries } from '../../../queries/project-list.query.js';
import { CreateProjectSchema } from '../../../schemas/project.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { createProject } from '../../../use-cases/projects.use-cases.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { frameOf, renderPage } from '../render.js';
import { ProjectList, type NewProjectForm } from '../views/projects/project-list.js';

const PAGE = { status: 200, description: 'An HTML page' };

function listPage(c: Context<AppEnv>, deps: AppDeps, status = 200, refused?: NewProjectForm): Response {
  const mayCreate = isAllowed(c.get('principal'), 'ADMIN', undefined);
  return renderPage(c, <ProjectList frame={frameOf(c, deps)} projects={projectSummaries(deps.registry, deps.health)} mayCreate={mayCreate} refused={refused} />, status);
}

/** The field a message names first (`id`, `name` or `description`), or null. */
function fieldOf(message: string): NewProjectForm['error']['field'] {
  const found = /\b(id|name|description)\b/.exec(message);
  return found ? (found[1] as 'id' | 'name' | 'description') : null;
}

export const projectPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/projects', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'The project list', success: PAGE,
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  defineRoute({
    method: 'post', path: '/projects', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Create a project (the new-project form of the project list)', success: { status: 303, description: 'To the new project' },
    handle: async ({ c, deps, principal }) => {
      const form = c.get('form') ?? {};
      const values = { id: (form['id'] ?? '').trim(), name: (form['name'] ?? '').trim(), description: form['description'] ?? '' };
      const parsed = v.safeParse(CreateProjectSchema, values);
      if (!parsed.success) {
        const { message } = formatIssues(parsed.issues);
        return listPage(c, deps, 400, { values, error: { field: fieldOf(message), message } });
      }
      const created = await createProject(deps.registry, parsed.output, principal);
      if (!created.ok) return listPage(c, deps, created.error.kind === 'NameExistsError' ? 409 : 400, { values, error: { field: fieldOf(created.error.message), message: created.error.message } });
      return c.redirect(`/projects/${encodeURIComponent(created.value.id)}`, 303);
    },
  }),
];
