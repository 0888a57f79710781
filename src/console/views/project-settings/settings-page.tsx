/** @jsxImportSource hono/jsx */
/** A project's settings page: general, members, environments with their default strategies, segments, delete. */
import { Layout, Script } from '../../layout.js';
import { ProjectNav } from '../project-nav.js';
import { EnvironmentsSection } from './environments-section.js';
import { GeneralSection } from './general-section.js';
import { MembersSection } from './members-section.js';
import { DeleteSection, SegmentsSection } from './segments-delete-sections.js';
import type { SettingsModel } from './settings-model.js';
import { Notice } from '../notice.js';

/** The whole page. */
export function SettingsPage({ model }: { model: SettingsModel }) {
  const { project } = model;
  return (
    <Layout title={`Settings · ${project.name}`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></li><li><span aria-current="page">Settings</span></li></ol>
      </nav>
      <div class="page-header"><div><h1>{project.name}</h1><p class="muted">Project settings</p></div></div>
      <ProjectNav projectId={project.id} projectName={project.name} current="settings" />
      <Notice notice={model.notice} />
      {model.may.update || model.may.access ? null : <p class="alert alert-info">You can read these settings; your roles do not allow changing them.</p>}
      <div class="stack settings-stack">
        <GeneralSection model={model} />
        <MembersSection model={model} />
        <EnvironmentsSection model={model} />
        <SegmentsSection model={model} />
        <DeleteSection model={model} />
      </div>
      <Script name="flag-page.js" />
    </Layout>
  );
}
