/** @jsxImportSource hono/jsx */
/**
 * Two moments of a project compared (`/projects/:p/compare?from=&to=`): a form with the two moments, then every
 * flag whose configuration differs between them, with what happened to it (created, deleted, archived, revived,
 * changed) and the diff, and what moved in the project's settings.
 */
import type { MomentComparison } from '../../../queries/history/past-project.query.js';
import type { ComparePageQuery } from '../../../schemas/history-page.schema.js';
import { Layout } from '../../layout.js';
import { ProjectNav } from '../project-nav.js';
import { ChangeList } from './change-list.js';
import { MomentInput, Time } from './moment.js';

export interface ComparePageProps {
  project: { id: string; name: string };
  query: ComparePageQuery;
  /** The comparison; a message when a moment cannot be shown; null when the two moments are not both given. */
  comparison: MomentComparison | { title: string; error: string } | null;
  pageSize: number;
}

const base = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;

function compareUrl(projectId: string, query: ComparePageQuery, offset: number): string {
  const params = new URLSearchParams();
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (offset > 0) params.set('offset', String(offset));
  return `${base(projectId)}/compare?${params.toString()}`;
}

function Differences({ project, comparison, query, pageSize }: { project: ComparePageProps['project']; comparison: MomentComparison; query: ComparePageQuery; pageSize: number }) {
  const { flags, settings } = comparison;
  const shown = flags.slice(query.offset, query.offset + pageSize);
  const past = (iso: string) => `${base(project.id)}/at?t=${encodeURIComponent(iso)}`;
  return (
    <section aria-labelledby="differences-title">
      <div class="compare-summary card">
        <h2 id="differences-title">{flags.length === 0 ? 'No flag differs' : `${flags.length} flag${flags.length === 1 ? '' : 's'} differ`}</h2>
        <p class="muted">From <Time iso={comparison.from.asked} /> to <Time iso={comparison.to.asked} />.</p>
        <p class="small">
          Show the project as it was <a href={past(comparison.from.asked)}>at the first moment</a>
          {' '}or <a href={past(comparison.to.asked)}>at the second moment</a>.
        </p>
      </div>
      {settings.length > 0 ? (
        <div class="card compare-item">
          <h3 class="entry-title">Project settings <span class="badge">changed</span></h3>
          <ChangeList changes={settings} label="What changed in the settings" />
        </div>
      ) : null}
      <ul class="entries" role="list">
        {shown.map((flag) => (
          <li class="card compare-item">
            <h3 class="entry-title">
              {flag.after ? <a href={`${base(project.id)}/features/${encodeURIComponent(flag.name)}`}>{flag.name}</a> : flag.name}
              {' '}<span class={`badge status-${flag.status}`}>{flag.status}</span>
            </h3>
            <ChangeList changes={flag.changes} label={`What changed in ${flag.name}`} />
            <p class="entry-foot"><a href={`${base(project.id)}/history?feature=${encodeURIComponent(flag.name)}&from=${encodeURIComponent(comparison.from.asked)}&to=${encodeURIComponent(comparison.to.asked)}`}>Changes to {flag.name} in between</a></p>
          </li>
        ))}
      </ul>
      {flags.length > pageSize ? (
        <nav aria-label="Pages of the differences" class="pager">
          {query.offset > 0 ? <a class="button button-secondary" href={compareUrl(project.id, query, Math.max(0, query.offset - pageSize))}>Previous flags</a> : <span />}
          <span class="muted">{query.offset + 1}–{Math.min(flags.length, query.offset + pageSize)} of {flags.length}</span>
          {query.offset + pageSize < flags.length ? <a class="button button-secondary" href={compareUrl(project.id, query, query.offset + pageSize)}>Next flags</a> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

/** The comparison page. */
export function ComparePage({ project, query, comparison, pageSize }: ComparePageProps) {
  return (
    <Layout title={`Compare · ${project.name}`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><a href={base(project.id)}>{project.name}</a></li><li><span aria-current="page">Compare</span></li></ol>
      </nav>
      <div class="page-header">
        <div>
          <h1>Compare two moments</h1>
          <p class="muted">Every flag of {project.name} whose configuration differs between two moments, with what moved.</p>
        </div>
      </div>
      <ProjectNav projectId={project.id} projectName={project.name} current="compare" />
      <form method="get" action={`${base(project.id)}/compare`} class="card filters" aria-label="Choose two moments">
        <MomentInput id="compare-from" name="from" label="From" value={query.from} required />
        <MomentInput id="compare-to" name="to" label="To" value={query.to} required />
        <div class="filter-actions"><button type="submit" class="button button-primary">Compare</button></div>
      </form>
      {comparison === null ? <div class="card empty"><h2>Choose two moments</h2><p class="muted">Pick the two dates and times above to see what changed between them.</p></div> : null}
      {comparison && 'error' in comparison ? <div class="alert alert-error" role="alert"><p class="alert-title">{comparison.title}</p><p class="alert-detail">{comparison.error}</p></div> : null}
      {comparison && !('error' in comparison) ? <Differences project={project} comparison={comparison} query={query} pageSize={pageSize} /> : null}
    </Layout>
  );
}
