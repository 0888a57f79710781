/** @jsxImportSource hono/jsx */
/**
 * A project's page (`/projects/:projectId`): its heading, the new-flag form, the search and filters, the bulk
 * bar and the flag table with its pager; a helpful empty state when the project has no flag (or none match).
 */
import type { FlagTablePage } from '../../../queries/flag-table/flag-table.query.js';
import { flagTableSearch, type FlagTableQuery } from '../../../schemas/flag-table.schema.js';
import { Layout } from '../../layout.js';
import { BulkBar, type BulkPermissions } from './bulk-bar.js';
import { FlagFilters, isFiltered } from './flag-filters.js';
import type { RowNote } from './flag-row.js';
import { FlagTableView } from './flag-table.js';
import { tableUrl } from './flag-urls.js';
import { ProjectNav } from '../project-nav.js';
import type { NewFlagDraft } from '../../forms/flag-table.forms.js';
import type { Refusal } from '../form-parts.js';
import { NewFlagForm } from './new-flag-form.js';
import { Notice } from '../notice.js';
import type { OpenDraft } from '../../change-drafts.js';
import { DraftBanner, DraftedNotice } from '../change-requests/draft-banner.js';

export interface ProjectFlagsPageProps {
  project: { id: string; name: string; description: string | null };
  query: FlagTableQuery;
  page: FlagTablePage;
  now: number;
  may: { toggle: boolean; create: boolean; bulk: BulkPermissions };
  /** A message about the page itself (a URL that could not be read, a bulk action done or refused). */
  notice?: { kind: 'error' | 'done'; message: string } | undefined;
  notes?: ReadonlyMap<string, RowNote> | undefined;
  newFlag?: Refusal<NewFlagDraft> | undefined;
  /** The viewer's change requests of the project that still take changes (the banner). */
  drafts?: readonly OpenDraft[] | undefined;
  /** The request a bulk change went to instead of being made. */
  drafted?: OpenDraft | undefined;
}

function EmptyState({ projectId, query, mayCreate }: { projectId: string; query: FlagTableQuery; mayCreate: boolean }) {
  if (isFiltered(query)) {
    return (
      <div class="empty">
        <h3>No flags match</h3>
        <p class="muted">Nothing in this project matches the search and filters above.</p>
        <p><a class="button" href={tableUrl(projectId, flagTableSearch({ ...query, q: undefined, type: [], stale: [], tag: [], enabled: [], offset: 0 }))}>Clear search and filters</a></p>
      </div>
    );
  }
  if (query.archived) {
    return <div class="empty"><h3>No archived flags</h3><p class="muted">Flags you archive appear here, and can be revived from their page.</p></div>;
  }
  return (
    <div class="empty">
      <h3>No flags yet</h3>
      <p class="muted">A flag turns a piece of code on or off without a deploy, per environment.</p>
      <p class="muted">{mayCreate ? 'Create the first one with "New flag" above, or' : 'Flags can be created'} through the API: <code>{`POST /api/admin/projects/${projectId}/features`}</code></p>
    </div>
  );
}

/** The whole page. */
export function ProjectFlagsPage({ project, query, page, now, may, notice, notes, newFlag, drafts, drafted }: ProjectFlagsPageProps) {
  const anyBulk = Object.values(may.bulk).some(Boolean);
  const back = tableUrl(project.id, flagTableSearch(query));
  const archivedLink = tableUrl(project.id, flagTableSearch({ ...query, archived: !query.archived, offset: 0 }));
  return (
    <Layout title={project.name} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><span aria-current="page">{project.name}</span></li></ol>
      </nav>
      <div class="page-header">
        <div>
          <h1>{project.name}</h1>
          {project.description ? <p class="muted">{project.description}</p> : null}
        </div>
        <div class="header-actions">
          {may.create ? <NewFlagForm projectId={project.id} refused={newFlag} /> : null}
        </div>
      </div>
      <ProjectNav projectId={project.id} projectName={project.name} current="flags" />
      <Notice notice={notice} />
      <DraftedNotice projectId={project.id} drafted={drafted} />
      <DraftBanner projectId={project.id} drafts={drafts} />
      <section class="card flags-card" aria-labelledby="flags-title">
        <div class="flags-head">
          <h2 id="flags-title">{query.archived ? 'Archived flags' : 'Flags'}</h2>
          <a href={archivedLink} class="archived-link">{query.archived ? 'Show active flags' : 'Show archived flags'}</a>
        </div>
        {page.total > 0 || isFiltered(query) ? <FlagFilters projectId={project.id} query={query} environments={page.environments} /> : null}
        {anyBulk && page.rows.length > 0 && !query.archived
          ? <BulkBar projectId={project.id} environments={page.environments} may={may.bulk} back={back} />
          : null}
        {page.total === 0
          ? <EmptyState projectId={project.id} query={query} mayCreate={may.create} />
          : <FlagTableView projectId={project.id} query={query} page={page} now={now} notes={notes}
              may={{ toggle: may.toggle && !query.archived, select: anyBulk && !query.archived }} />}
      </section>
    </Layout>
  );
}
