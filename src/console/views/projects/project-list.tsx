/** @jsxImportSource hono/jsx */
import type { ProjectSummary } from '../../../queries/project-list.query.js';
import type { NewProjectForm } from '../../forms/project.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Layout } from '../../layout.js';
import { Csrf, errorAttrs, FieldError, FormAlert, type Refusal } from '../form-parts.js';

const FORM = 'new-project';
type NewProjectDraft = FormDraft<typeof NewProjectForm>;

export interface ProjectListProps {
  projects: ProjectSummary[];
  /** Whether the viewer may create projects (root Admins and admin tokens). */
  mayCreate: boolean;
  /** A refused new-project form, shown open with its message. */
  refused?: Refusal<NewProjectDraft> | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Health as a word beside the figure, so colour is never the only cue. */
const healthClass = (health: number) => (health >= 75 ? 'good' : health >= 50 ? 'fair' : 'poor');

function ProjectCard({ project }: { project: ProjectSummary }) {
  return (
    <li class="card project-card">
      <div class="project-head">
        <h2 class="project-name"><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></h2>
        <span class={`health health-${healthClass(project.health)}`}>{project.health}% health</span>
      </div>
      <p class="project-id"><code>{project.id}</code></p>
      {project.description ? <p class="project-desc">{project.description}</p> : <p class="project-desc muted">No description</p>}
      <dl class="stats">
        <div><dt>Flags</dt><dd>{project.flagCount}</dd></div>
        <div><dt>Stale</dt><dd>{project.staleCount}</dd></div>
        <div><dt>Members</dt><dd>{project.memberCount}</dd></div>
      </dl>
    </li>
  );
}

function NewProject({ refused }: { refused: Refusal<NewProjectDraft> | undefined }) {
  const values = refused?.draft ?? { id: '', name: '', description: '' };
  return (
    <details class="create-panel" open={refused !== undefined}>
      <summary class="button button-primary">New project</summary>
      <form method="post" action="/projects" class="card form-grid" aria-label="New project">
        <Csrf />
        <FormAlert error={refused} form={FORM} />
        <div class="field">
          <label for="project-name">Name</label>
          <input id="project-name" name="name" required maxlength={100} value={values.name} {...errorAttrs(refused, FORM, 'name', 'project-name')} />
          <FieldError error={refused} form={FORM} field="name" id="project-name" />
        </div>
        <div class="field">
          <label for="project-id">Id</label>
          <input id="project-id" name="id" required maxlength={100} value={values.id} autocapitalize="none" spellcheck={false} {...errorAttrs(refused, FORM, 'id', 'project-id', 'project-id-hint')} />
          <p class="hint" id="project-id-hint">Used in URLs and API tokens; letters, digits, - _ . ~ only. It cannot be changed later.</p>
          <FieldError error={refused} form={FORM} field="id" id="project-id" />
        </div>
        <div class="field field-wide">
          <label for="project-description">Description <span class="muted">(optional)</span></label>
          <input id="project-description" name="description" maxlength={1000} value={values.description} {...errorAttrs(refused, FORM, 'description', 'project-description')} />
          <FieldError error={refused} form={FORM} field="description" id="project-description" />
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create project</button></div>
      </form>
    </details>
  );
}

/** The project list page. */
export function ProjectList({ projects, mayCreate, refused }: ProjectListProps) {
  return (
    <Layout title="Projects" current="projects">
      <div class="page-header">
        <div>
          <h1>Projects</h1>
          <p class="muted">{plural(projects.length, 'project')}</p>
        </div>
        {mayCreate ? <NewProject refused={refused} /> : null}
      </div>
      {projects.length === 0
        ? <div class="card empty"><h2>No projects yet</h2><p class="muted">Projects group flags and the people who work on them.</p></div>
        : <ul class="project-grid" role="list">{projects.map((project) => <ProjectCard project={project} />)}</ul>}
    </Layout>
  );
}
