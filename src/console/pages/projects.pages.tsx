/** @jsxImportSource hono/jsx */
/** The project list (`/projects`), with the new-project form for those who may create projects. */
import type { Context } from 'hono';
import { isAllowed } from '../../auth/permissions.js';
import { projectSummaries } from '../../queries/project-list.query.js';
import { createProject } from '../../use-cases/projects.use-cases.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import type { FormDraft, Refusal } from '../forms/form.js';
import { NewProjectForm } from '../forms/project.forms.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { ProjectList } from '../views/projects/project-list.js';

function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, refused?: Refusal<FormDraft<typeof NewProjectForm>>): Response {
  const mayCreate = isAllowed(c.get('principal'), 'ADMIN', undefined);
  return renderPage(c, <ProjectList projects={projectSummaries(deps.registry, deps.health)} mayCreate={mayCreate} refused={refused} />);
}

export const projectPages = [
  definePage({
    method: 'get', path: '/projects', permission: 'READ', summary: 'The project list',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  definePage({
    method: 'post', path: '/projects', permission: 'ADMIN', form: NewProjectForm,
    summary: 'Create a project (the new-project form of the project list)', success: { status: 303, description: 'To the new project' },
    handle: ({ registry, form, principal }) => createProject(registry, form, principal),
    done: (project) => `/projects/${encodeURIComponent(project.id)}`,
    refused: ({ c, deps }, refusal) => listPage(c, deps, refusal),
  }),
];
