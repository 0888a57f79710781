/** @jsxImportSource hono/jsx */
/** A flag's page: header with its marks and actions, details, tags, each environment, variants and usage; kept live. */
import { Layout, Script } from '../../layout.js';
import { EnvironmentSection } from './environment-section.js';
import { FlagDependencies } from './flag-dependencies.js';
import { FlagDetails, FlagMarks } from './flag-details.js';
import { FlagLifecycle } from './flag-lifecycle.js';
import type { FlagPageModel } from './flag-model.js';
import { FlagTags } from './flag-tags.js';
import { FlagUsage } from './flag-usage.js';
import { FlagApplications } from './flag-applications.js';
import { FlagVariants } from './flag-variants.js';
import { ProjectNav } from '../project-nav.js';
import { eventsUrl, flagUrl } from '../flags/flag-urls.js';
import { Notice } from '../notice.js';
import { DraftBanner, DraftedNotice } from '../change-requests/draft-banner.js';

/** The whole page. */
export function FlagPage({ model }: { model: FlagPageModel }) {
  const { flag, project } = model;
  return (
    <Layout title={`${flag.name} · ${project.name}`} current="projects">
      {/* Live (issue 31 §5): the project's stream names each changed flag; when it names this one, htmx's SSE
          extension fetches the page again and swaps #flag-page, unless the person is working in a form there
          (static/flag-page.js then cancels it and says so). */}
      <div hx-ext="sse" sse-connect={eventsUrl(project.id)}>
        <div id="flag-page" hx-get={flagUrl(project.id, flag.name)} hx-trigger={`sse:changed:${flag.name}`} hx-select="#flag-page" hx-target="this" hx-swap="outerHTML" hx-disinherit="*">
          <nav aria-label="Breadcrumb" class="breadcrumb">
            <ol>
              <li><a href="/projects">Projects</a></li>
              <li><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></li>
              <li><span aria-current="page">{flag.name}</span></li>
            </ol>
          </nav>
          <div class="page-header">
            <div class="title-block">
              <h1 class="flag-title">{flag.name}</h1>
              <FlagMarks flag={flag} />
              <p class="small"><a href={`/projects/${encodeURIComponent(project.id)}/history?feature=${encodeURIComponent(flag.name)}`}>History of this flag</a></p>
            </div>
            <FlagLifecycle model={model} />
          </div>
          <ProjectNav projectId={project.id} projectName={project.name} />
          <div id="flag-live" role="status"></div>
          <Notice notice={model.notice} />
          <DraftedNotice projectId={project.id} drafted={model.drafted} />
          <DraftBanner projectId={project.id} drafts={model.drafts} />
          {flag.archived ? <p class="alert alert-error">This flag is archived: SDKs no longer receive it and it cannot be changed. Revive it to work on it again.</p> : null}
          {model.may.update ? null : <p class="alert alert-info">You can read this flag; your roles do not allow changing it.</p>}
          <div class="flag-grid">
            <FlagDetails model={model} />
            <FlagTags model={model} />
          </div>
          <h2 class="section-title">Environments</h2>
          <div class="env-list">
            {model.environments.map((env) => <EnvironmentSection model={model} env={env} />)}
          </div>
          <div class="stack">
            <FlagVariants model={model} />
            <FlagDependencies model={model} />
            <FlagUsage model={model} />
            <FlagApplications model={model} />
          </div>
        </div>
      </div>
      <Script name="flag-page.js" />
    </Layout>
  );
}
