/** @jsxImportSource hono/jsx */
/**
 * The stale flags (`/stale`): per project, the flags marked stale, past their type's expected lifetime or not
 * asked for by any SDK in 7 days, with why; searched and paged by the server; the selected ones marked stale
 * or archived (after a confirmation naming them) as the flag table's bulk bar does.
 */
import type { ListPage } from '../../../queries/paging.js';
import { UNUSED_DAYS, type StaleCounts, type StaleProject, type StaleRow } from '../../../queries/stale-flags.query.js';
import type { StaleKind } from '../../../schemas/insight-pages.schema.js';
import { Layout } from '../../layout.js';
import { Csrf, When } from '../form-parts.js';
import { flagUrl } from '../flags/flag-urls.js';
import { ListCard, ListEmpty, ListRows, withQuery } from '../list.js';
import { Notice } from '../notice.js';

/** Where the bulk form of a project posts. */
export const staleBulkUrl = (projectId: string): string => `/stale/${encodeURIComponent(projectId)}/bulk`;

const KIND_LABELS: Record<StaleKind, string> = { stale: 'Marked stale', overdue: 'Past lifetime', unused: `Unused ${UNUSED_DAYS} days` };

export interface StalePageProps {
  projects: StaleProject[];
  project: { id: string; name: string };
  kind: StaleKind | undefined;
  q: string | undefined;
  page: ListPage<StaleRow> & { counts: StaleCounts };
  may: { stale: boolean; archive: boolean };
  notice?: { kind: 'error' | 'done'; message: string } | undefined;
}

/** Why a flag is listed, as badges. */
function Reasons({ row }: { row: StaleRow }) {
  return (
    <ul class="reasons">
      {row.kinds.includes('stale') ? <li><span class="badge badge-danger">Marked stale</span></li> : null}
      {row.overdue !== null ? (
        <li><span class="badge badge-warn">Past lifetime</span> <span class="small muted">{`${row.flag.type}: ${row.overdue.lifetimeDays} days, ended `}<When at={new Date(row.overdue.since).toISOString()} /></span></li>
      ) : null}
      {row.kinds.includes('unused') ? <li><span class="badge">{row.lastSeenAt === null ? 'Never asked for' : `Unused ${UNUSED_DAYS} days`}</span></li> : null}
    </ul>
  );
}

function Filters({ projects, project, kind, q }: Pick<StalePageProps, 'projects' | 'project' | 'kind' | 'q'>) {
  return (
    <form method="get" action="/stale" class="filters stale-filters" role="search" aria-label="Choose project and search">
      <div class="field">
        <label for="stale-project">Project</label>
        <select id="stale-project" name="project">
          {projects.map((p) => <option value={p.id} selected={p.id === project.id}>{`${p.name} (${p.counts.any})`}</option>)}
        </select>
      </div>
      {kind ? <input type="hidden" name="kind" value={kind} /> : null}
      <div class="field">
        <label for="stale-q">Flag name</label>
        <input id="stale-q" type="search" name="q" value={q ?? ''} placeholder="Part of the name" maxlength={100} autocomplete="off" />
      </div>
      <div class="filter-actions"><button type="submit" class="button button-primary">Show</button></div>
    </form>
  );
}

function KindTabs({ project, kind, q, counts }: { project: string; kind: StaleKind | undefined; q: string | undefined; counts: StaleCounts }) {
  const tabs: [StaleKind | undefined, string, number][] = [[undefined, 'All', counts.any], ['stale', KIND_LABELS.stale, counts.stale], ['overdue', KIND_LABELS.overdue, counts.overdue], ['unused', KIND_LABELS.unused, counts.unused]];
  return (
    <nav aria-label="Kinds of flag" class="kind-tabs">
      <ul>
        {tabs.map(([k, label, n]) => (
          <li><a href={withQuery('/stale', { project, kind: k, q })} aria-current={k === kind ? 'page' : undefined}>{label} <span class="count">{n}</span></a></li>
        ))}
      </ul>
    </nav>
  );
}

/** The whole page. */
export function StalePage({ projects, project, kind, q, page, may, notice }: StalePageProps) {
  const here = withQuery('/stale', { project: project.id, kind, q, page: page.page });
  const selectable = may.stale || may.archive;
  return (
    <Layout title="Stale flags" current="stale">
      <div class="page-header">
        <div>
          <h1>Stale flags</h1>
          <p class="muted">{`Flags to clean up: marked stale, older than their type's expected lifetime (release and experiment 40 days, operational 7; kill-switch and permission never), or not asked for by any SDK in ${UNUSED_DAYS} days.`}</p>
        </div>
      </div>
      <Notice notice={notice} />
      <Filters projects={projects} project={project} kind={kind} q={q} />
      <ListCard id="stale-title" title={`In ${project.name}`} head={<a href={`/projects/${encodeURIComponent(project.id)}`} class="small">Open the project</a>}>
        <KindTabs project={project.id} kind={kind} q={q} counts={page.counts} />
        {selectable && page.rows.length > 0 ? (
          <form id="stale-bulk" method="post" action={staleBulkUrl(project.id)} class="bulk-bar" aria-label="Selected flags">
            <Csrf />
            <input type="hidden" name="back" value={here} />
            <span class="bulk-label">With the selected flags:</span>
            {may.stale ? <button type="submit" name="action" value="stale" class="button button-small">Mark stale</button> : null}
            {may.archive ? <button type="submit" name="action" value="archive" class="button button-small button-danger">Archive…</button> : null}
          </form>
        ) : null}
        <ListRows list={page} labelledBy="stale-title" class="list-table" scroll="list-scroll"
          empty={<ListEmpty title="Nothing to clean up here" level={3}><p class="muted">{q ? 'No listed flag matches the name.' : 'No flag of this project is of this kind.'}</p></ListEmpty>}
          columns={[...(selectable ? [{ label: <span class="sr-only">Select</span>, class: 'col-select' }] : []), 'Flag', 'Why', 'Created', 'Last seen']}
          href={(n) => withQuery('/stale', { project: project.id, kind, q, page: n })} noun={['flag', 'flags']}
          row={(row) => (
            <tr>
              {selectable ? <td class="col-select"><input type="checkbox" name="features" value={row.flag.name} form="stale-bulk" aria-label={`Select ${row.flag.name}`} /></td> : null}
              <th scope="row" class="list-name"><a href={flagUrl(project.id, row.flag.name)}>{row.flag.name}</a> <span class="type-chip">{row.flag.type}</span></th>
              <td data-label="Why"><Reasons row={row} /></td>
              <td class="nowrap" data-label="Created"><When at={row.flag.createdAt} /></td>
              <td class="nowrap" data-label="Last seen"><When at={row.lastSeenAt} /></td>
            </tr>
          )} />
      </ListCard>
    </Layout>
  );
}

export interface ArchiveConfirmProps {
  project: { id: string; name: string };
  features: string[];
  back: string;
}

/** The confirmation step of a bulk archive: names every flag. */
export function ArchiveConfirmPage({ project, features, back }: ArchiveConfirmProps) {
  const flags = `${features.length} ${features.length === 1 ? 'flag' : 'flags'}`;
  return (
    <Layout title={`Archive ${flags}?`} current="stale">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href={back}>Stale flags</a></li><li><span aria-current="page">Archive</span></li></ol>
      </nav>
      <section class="card confirm-card" aria-labelledby="confirm-title">
        <h1 id="confirm-title">{`Archive ${flags} of ${project.name}?`}</h1>
        <p>SDKs stop receiving them at once. They stay in the Archive, where they can be revived (off in every environment) or deleted.</p>
        <ul class="confirm-list">{features.map((name) => <li><code>{name}</code></li>)}</ul>
        <form method="post" action={staleBulkUrl(project.id)} class="form-actions">
          <Csrf />
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="confirmed" value="yes" />
          {features.map((name) => <input type="hidden" name="features" value={name} />)}
          <button type="submit" name="action" value="archive" class="button button-danger">{`Archive ${flags}`}</button>
          <a class="button" href={back}>Cancel</a>
        </form>
      </section>
    </Layout>
  );
}
