/** @jsxImportSource hono/jsx */
import { Layout, type Frame } from '../../layout.js';

export interface ProjectPageProps {
  frame: Frame;
  project: { id: string; name: string; description: string | null };
}

/** A project's page: its heading and the "Flags" section the flag table fills. */
export function ProjectPage({ frame, project }: ProjectPageProps) {
  return (
    <Layout title={project.name} current="projects" {...frame}>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><span aria-current="page">{project.name}</span></li></ol>
      </nav>
      <div class="page-header">
        <div>
          <h1>{project.name}</h1>
          {project.description ? <p class="muted">{project.description}</p> : null}
        </div>
      </div>
      <section class="card" aria-labelledby="flags-title">
        <h2 id="flags-title">Flags</h2>
        <p class="muted">The flags of this project appear here.</p>
      </section>
    </Layout>
  );
}
