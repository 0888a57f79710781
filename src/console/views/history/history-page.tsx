/** @jsxImportSource hono/jsx */
/**
 * A project's history (`/projects/:p/history`): its filters as a GET form (the state in the URL), then the
 * entries newest first, each with who, when, what, which flag, the change itself as a readable diff, and a link
 * to the project as it was after it; older and newer pages.
 */
import type { ChangeKind, TimelineEntry } from '../../../queries/history/history.query.js';
import type { HistoryPageQuery } from '../../../schemas/history-page.schema.js';
import { Layout } from '../../layout.js';
import { ProjectNav } from '../project-nav.js';
import { ChangeList } from './change-list.js';
import { entryTitle, KIND_LABELS, personWords } from './entry-words.js';
import { MomentInput, Time } from './moment.js';

export interface HistoryPageProps {
  project: { id: string; name: string };
  query: HistoryPageQuery;
  /** The page of entries, or the message of a filter the history refused (a bad date). */
  page: { entries: TimelineEntry[]; hasMore: boolean } | { title: string; error: string };
  /** The people the person filter offers (`user:<id>` → name), and how `by` values are named. */
  people: ReadonlyMap<string, string>;
  /** The kinds of change the filter offers. */
  kinds: readonly ChangeKind[];
  /** Whether a flag exists now (a deleted flag's name links to its timeline only). */
  isFlag: (name: string) => boolean;
  pageSize: number;
}

/** The history's URL with the current filters and some replaced (undefined: dropped). */
export function historyUrl(projectId: string, query: HistoryPageQuery, change: Partial<Record<keyof HistoryPageQuery, string | number | undefined>> = {}): string {
  const merged: Record<string, unknown> = Object.assign({}, query, change);
  const params = new URLSearchParams();
  for (const key of ['feature', 'by', 'kind', 'from', 'to', 'offset'] as const) {
    const value = merged[key];
    if (value !== undefined && value !== '' && !(key === 'offset' && value === 0)) params.set(key, String(value));
  }
  const search = params.toString();
  return `/projects/${encodeURIComponent(projectId)}/history${search ? `?${search}` : ''}`;
}

const pastUrl = (projectId: string, at: string) => `/projects/${encodeURIComponent(projectId)}/at?t=${encodeURIComponent(at)}`;
const flagUrl = (projectId: string, name: string) => `/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(name)}`;

function Filters({ project, query, people, kinds }: Pick<HistoryPageProps, 'project' | 'query' | 'people' | 'kinds'>) {
  const known = query.by !== undefined && !people.has(query.by);
  return (
    <form method="get" action={`/projects/${encodeURIComponent(project.id)}/history`} class="card filters history-filters" aria-label="Filter the history">
      <div class="field">
        <label for="history-feature">Flag</label>
        <input type="search" id="history-feature" name="feature" value={query.feature ?? ''} maxlength={100} autocapitalize="none" spellcheck={false} placeholder="Any flag" />
      </div>
      <div class="field">
        <label for="history-by">Person</label>
        <select id="history-by" name="by">
          <option value="">Anyone</option>
          {[...people].map(([by, name]) => <option value={by} selected={query.by === by}>{name}</option>)}
          {known ? <option value={query.by} selected>{personWords(query.by!, people)}</option> : null}
        </select>
      </div>
      <div class="field">
        <label for="history-kind">Kind of change</label>
        <select id="history-kind" name="kind">
          <option value="">Any kind</option>
          {kinds.map((kind) => <option value={kind} selected={query.kind === kind}>{KIND_LABELS[kind]}</option>)}
        </select>
      </div>
      <MomentInput id="history-from" name="from" label="From" value={query.from} />
      <MomentInput id="history-to" name="to" label="To" value={query.to} />
      <div class="filter-actions">
        <button type="submit" class="button button-primary">Apply filters</button>
        <a class="button button-secondary" href={historyUrl(project.id, {} as HistoryPageQuery)}>Clear</a>
      </div>
    </form>
  );
}

function Entry({ project, entry, people, query, isFlag }: Pick<HistoryPageProps, 'project' | 'people' | 'query' | 'isFlag'> & { entry: TimelineEntry }) {
  const person = personWords(entry.by, people);
  return (
    <li class="card entry">
      <div class="entry-head">
        <span class={`badge kind-${entry.kind}`}>{KIND_LABELS[entry.kind] ?? entry.kind}</span>
        <h3 class="entry-title">
          {entryTitle(entry.type)}
          {entry.feature ? <>{' · '}{isFlag(entry.feature) ? <a href={flagUrl(project.id, entry.feature)}>{entry.feature}</a> : entry.feature}</> : null}
          {entry.environment ? <span class="entry-env"> in {entry.environment}</span> : null}
        </h3>
      </div>
      <p class="entry-meta">
        <a href={historyUrl(project.id, query, { by: entry.by, offset: undefined })} title={`Only changes by ${person}`}>{person}</a>
        {' · '}<Time iso={entry.at} />
        {entry.feature ? <>{' · '}<a href={historyUrl(project.id, query, { feature: entry.feature, offset: undefined })}>Timeline of {entry.feature}</a></> : null}
      </p>
      {entry.changes.length > 0 ? <ChangeList changes={entry.changes} label="What changed" /> : <p class="muted">No field moved.</p>}
      <p class="entry-foot"><a href={pastUrl(project.id, entry.at)}>Show the project as it was after this change</a></p>
    </li>
  );
}

/** The history page. */
export function HistoryPage({ project, query, page, people, kinds, isFlag, pageSize }: HistoryPageProps) {
  const title = query.feature ? `History of ${query.feature}` : 'History';
  const filtered = query.feature !== undefined || query.by !== undefined || query.kind !== undefined || query.from !== undefined || query.to !== undefined;
  return (
    <Layout title={`${title} · ${project.name}`} current="projects">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href="/projects">Projects</a></li><li><a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a></li><li><span aria-current="page">History</span></li></ol>
      </nav>
      <div class="page-header">
        <div>
          <h1>{title}</h1>
          {query.feature
            ? <p class="muted">Every change to flag {query.feature}, newest first.{isFlag(query.feature) ? <>{' '}<a href={flagUrl(project.id, query.feature)}>Open the flag</a></> : null}</p>
            : <p class="muted">Every change to {project.name}, newest first, with what it moved.</p>}
        </div>
      </div>
      <ProjectNav projectId={project.id} projectName={project.name} current="history" />
      <Filters project={project} query={query} people={people} kinds={kinds} />
      {'error' in page ? <div class="alert alert-error" role="alert"><p class="alert-title">{page.title}</p><p class="alert-detail">{page.error}</p></div> : (
        <section aria-labelledby="entries-title">
          <h2 id="entries-title" class="sr-only">Changes</h2>
          {page.entries.length === 0
            ? <div class="card empty"><h3>No changes found</h3><p class="muted">{filtered ? 'No change matches these filters.' : 'Nothing has changed in this project yet.'}</p></div>
            : <ol class="entries" role="list">{page.entries.map((entry) => <Entry project={project} entry={entry} people={people} query={query} isFlag={isFlag} />)}</ol>}
          <nav aria-label="Pages of the history" class="pager">
            {query.offset > 0 ? <a class="button button-secondary" href={historyUrl(project.id, query, { offset: Math.max(0, query.offset - pageSize) })}>Newer changes</a> : <span />}
            {page.hasMore ? <a class="button button-secondary" href={historyUrl(project.id, query, { offset: query.offset + pageSize })}>Older changes</a> : null}
          </nav>
        </section>
      )}
    </Layout>
  );
}
