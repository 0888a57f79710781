/** @jsxImportSource hono/jsx */
/**
 * The archive (`/archive`): the archived flags of every project, most recently archived first, searched and
 * paged by the server; revive in place, delete after a confirmation page naming the flag.
 */
import type { ListPage } from '../../../queries/paging.js';
import type { ArchivedRow } from '../../../queries/archive.query.js';
import { Layout } from '../../layout.js';
import { Csrf, PostButton, When } from '../form-parts.js';
import { flagUrl } from '../flags/flag-urls.js';
import { ListCard, ListEmpty, ListRows, ListSearch, withQuery } from '../list.js';
import { Notice } from '../notice.js';

const e = encodeURIComponent;

/** Where an archived flag's revive and delete post (and the delete's confirmation page). */
export const archivedFlagUrl = (projectId: string, flag: string, action: 'revive' | 'delete'): string => `/archive/${e(projectId)}/${e(flag)}/${action}`;

export interface ArchivePageProps {
  q: string | undefined;
  page: ListPage<ArchivedRow>;
  /** Whether the viewer may revive and delete archived flags of a project (`DELETE_FEATURE` there). */
  mayRemove: (projectId: string) => boolean;
  notice?: { kind: 'error' | 'done'; message: string } | undefined;
}

function Empty({ q }: { q: string | undefined }) {
  if (q !== undefined) return <ListEmpty title="No archived flag matches"><p><a class="button" href="/archive">Show every archived flag</a></p></ListEmpty>;
  return <ListEmpty title="The archive is empty"><p class="muted">Flags archived in any project appear here, to be revived or deleted for good.</p></ListEmpty>;
}

/** The whole page. */
export function ArchivePage({ q, page, mayRemove, notice }: ArchivePageProps) {
  const back = withQuery('/archive', { q, page: page.page });
  return (
    <Layout title="Archive" current="archive">
      <div class="page-header">
        <div>
          <h1>Archive</h1>
          <p class="muted">Archived flags of every project. SDKs no longer receive them; revive one to use it again (it comes back off in every environment).</p>
        </div>
      </div>
      <Notice notice={notice} />
      <ListCard id="archive-title" title="Archived flags"
        head={<ListSearch action="/archive" q={q} id="archive-q" class="list-search" label="Flag name" name="Search archived flags" />}>
        <ListRows list={page} empty={<Empty q={q} />} labelledBy="archive-title" class="list-table" scroll="list-scroll"
          columns={['Flag', 'Project', 'Type', 'Archived', <span class="sr-only">Actions</span>]}
          href={(n) => withQuery('/archive', { q, page: n })} noun={['archived flag', 'archived flags']}
          row={({ project, projectName, flag }) => (
            <tr>
              <th scope="row" class="list-name">
                <a href={flagUrl(project, flag.name)}>{flag.name}</a>
                {flag.description ? <span class="list-desc">{flag.description}</span> : null}
              </th>
              <td data-label="Project"><a href={`/projects/${e(project)}`}>{projectName}</a></td>
              <td data-label="Type"><span class="type-chip">{flag.type}</span></td>
              <td class="nowrap" data-label="Archived"><When at={flag.archivedAt} /></td>
              <td>
                {mayRemove(project) ? (
                  <div class="row-actions">
                    <PostButton action={archivedFlagUrl(project, flag.name, 'revive')} fields={{ back }} label="Revive" ariaLabel={`Revive ${flag.name}`} />
                    <a class="button button-small button-danger-outline" href={`${archivedFlagUrl(project, flag.name, 'delete')}?back=${e(back)}`} aria-label={`Delete ${flag.name}…`}>Delete…</a>
                  </div>
                ) : <span class="muted small">Read only</span>}
              </td>
            </tr>
          )} />
      </ListCard>
    </Layout>
  );
}

export interface DeleteConfirmProps {
  project: { id: string; name: string };
  flag: string;
  back: string;
}

/** The confirmation step of a delete: names the flag and its project, and what goes with it. */
export function DeleteConfirmPage({ project, flag, back }: DeleteConfirmProps) {
  return (
    <Layout title={`Delete ${flag}?`} current="archive">
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href={back}>Archive</a></li><li><span aria-current="page">{`Delete ${flag}`}</span></li></ol>
      </nav>
      <section class="card confirm-card" aria-labelledby="confirm-title">
        <h1 id="confirm-title">{`Delete “${flag}” for good?`}</h1>
        <p>The archived flag <strong>{flag}</strong> of project <strong>{project.name}</strong> will be deleted with its strategies, variants and tags. This cannot be undone; its name becomes free for a new flag.</p>
        <form method="post" action={archivedFlagUrl(project.id, flag, 'delete')} class="form-actions">
          <Csrf />
          <input type="hidden" name="back" value={back} />
          <button type="submit" class="button button-danger">{`Delete ${flag}`}</button>
          <a class="button" href={back}>Cancel</a>
        </form>
      </section>
    </Layout>
  );
}
