/** @jsxImportSource hono/jsx */
/**
 * A project as it was (`/projects/:p/at?t=`): a banner saying which moment it shows and that nothing can be
 * changed, a form to choose another moment, and a read-only table of the flags then (no switch, no form that
 * posts), each with its configuration behind a disclosure. A moment that cannot be shown is said in words.
 */
import type { PastProject } from '../../../queries/history/past-project.query.js';
import type { PastPageQuery } from '../../../schemas/history-page.schema.js';
import { Layout } from '../../layout.js';
import { ProjectNav } from '../project-nav.js';
import { MomentInput, readableTime, Time } from './moment.js';
import { OnOff, PastFlagDetails, strategyCount } from './past-flag.js';

export interface PastPageProps {
  project: { id: string; name: string };
  query: PastPageQuery;
  /** The project then; a message when that moment cannot be shown; null when no moment was asked yet. */
  past: PastProject | { title: string; error: string; earliest: string | null } | null;
  pageSize: number;
}

const base = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;

function pastUrl(projectId: string, query: PastPageQuery, offset: number): string {
  const params = new URLSearchParams();
  if (query.t) params.set('t', query.t);
  if (query.q) params.set('q', query.q);
  if (offset > 0) params.set('offset', String(offset));
  return `${base(projectId)}/at?${params.toString()}`;
}

function MomentForm({ project, query }: Pick<PastPageProps, 'project' | 'query'>) {
  return (
    <form method="get" action={`${base(project.id)}/at`} class="card filters moment-form" aria-label="Choose a moment">
      <MomentInput id="past-t" name="t" label="Show the project as it was at" value={query.t} required />
      <div class="field">
        <label for="past-q">Flag name contains</label>
        <input type="search" id="past-q" name="q" value={query.q ?? ''} maxlength={100} autocapitalize="none" spellcheck={false} placeholder="Any flag" />
      </div>
      <div class="filter-actions"><button type="submit" class="button button-primary">Show</button></div>
    </form>
  );
}

function FlagTable({ project, past, query, pageSize }: { project: PastPageProps['project']; past: PastProject; query: PastPageQuery; pageSize: number }) {
  const needle = query.q?.toLowerCase();
  const flags = needle ? past.flags.filter((f) => f.name.toLowerCase().includes(needle)) : past.flags;
  const shown = flags.slice(query.offset, query.offset + pageSize);
  const environments = past.meta.environments;
  if (flags.length === 0) {
    return <div class="card empty"><h2>No flags</h2><p class="muted">{needle ? 'No flag of that name existed then.' : 'The project had no flags at that moment.'}</p></div>;
  }
  return (
    <section aria-labelledby="past-flags-title">
      <h2 id="past-flags-title">Flags then <span class="muted count">({flags.length})</span></h2>
      <div class="table-scroll" role="region" aria-labelledby="past-flags-title" tabindex={0}>
        <table class="data-table past-table">
          <thead>
            <tr>
              <th scope="col">Flag</th>
              <th scope="col">Type</th>
              {environments.map((env) => <th scope="col">{env}</th>)}
              <th scope="col">Strategies</th>
            </tr>
          </thead>
          {shown.map((flag) => (
            <tbody class={flag.archived ? 'past-flag archived' : 'past-flag'}>
              <tr>
                <th scope="row" class="flag-name">
                  <span>{flag.name}</span>
                  {flag.archived ? <span class="badge">archived</span> : null}
                  {flag.stale ? <span class="badge badge-fair">stale</span> : null}
                </th>
                <td>{flag.type}</td>
                {environments.map((env) => <td><OnOff on={flag.environments[env]?.enabled ?? false} /></td>)}
                <td>{strategyCount(flag)}</td>
              </tr>
              <tr class="detail-row">
                <td colspan={environments.length + 3}><PastFlagDetails flag={flag} environments={environments} historyUrl={`${base(project.id)}/history?feature=${encodeURIComponent(flag.name)}&to=${encodeURIComponent(past.asked)}`} /></td>
              </tr>
            </tbody>
          ))}
        </table>
      </div>
      {flags.length > pageSize ? (
        <nav aria-label="Pages of the flags" class="pager">
          {query.offset > 0 ? <a class="button button-secondary" href={pastUrl(project.id, query, Math.max(0, query.offset - pageSize))}>Previous flags</a> : <span />}
          <span class="muted">{query.offset + 1}–{Math.min(flags.length, query.offset + pageSize)} of {flags.length}</span>
          {query.offset + pageSize < flags.length ? <a class="button button-secondary" href={pastUrl(project.id, query, query.offset + pageSize)}>Next flags</a> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

/** The past view page. */
export function PastPage({ project, query, past, pageSize }: PastPageProps) {
  const when = past && !('error' in past) ? readableTime(past.asked) : undefined;
  return (
    <Layout title={when ? `${project.name} at ${when}` : `${project.name} in the past`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><a href={base(project.id)}>{project.name}</a></li><li><a href={`${base(project.id)}/history`}>History</a></li><li><span aria-current="page">As it was</span></li></ol>
      </nav>
      <div class="page-header">
        <div>
          <h1>{project.name} as it was</h1>
          <p class="muted">Any earlier moment of the project, from its command log. Read-only.</p>
        </div>
      </div>
      <ProjectNav projectId={project.id} projectName={project.name} />
      {past && !('error' in past) ? (
        <div class="past-banner" role="status">
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2" /><path d="M12 7v5l3 2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" /></svg>
          <div>
            <p class="past-banner-title">You are looking at {project.name} as it was at <Time iso={past.asked} />. Nothing here can be changed.</p>
            <p class="small">The last change before that moment was made at <Time iso={past.at} />. <a href={base(project.id)}>Back to {project.name} now</a>
              {' · '}<a href={`${base(project.id)}/compare?from=${encodeURIComponent(past.asked)}&to=${encodeURIComponent(new Date().toISOString())}`}>What changed since</a></p>
          </div>
        </div>
      ) : null}
      <MomentForm project={project} query={query} />
      {past === null ? <div class="card empty"><h2>Choose a moment</h2><p class="muted">Pick a date and time above, or open a change in the <a href={`${base(project.id)}/history`}>history</a> and follow "Show the project as it was after this change".</p></div> : null}
      {past && 'error' in past ? (
        <div class="alert alert-error" role="alert">
          <p class="alert-title">{past.title}</p>
          <p class="alert-detail">{past.error}</p>
          {past.earliest ? <p><a href={`${base(project.id)}/at?t=${encodeURIComponent(past.earliest)}`}>Show the earliest moment that can be shown (<Time iso={past.earliest} />)</a></p> : null}
        </div>
      ) : null}
      {past && !('error' in past) ? <FlagTable project={project} past={past} query={query} pageSize={pageSize} /> : null}
    </Layout>
  );
}
