/** @jsxImportSource hono/jsx */
/**
 * The archive (`/archive`): the archived flags of every project, most recently archived first, searched and
 * paged by the server; revive in place, delete after a confirmation page naming the flag.
 */
import type { ListPage } from '../../../queries/paging.js';
import type { ArchivedRow } from '../../../queries/archive.query.js';
import { Layout, type Frame } from '../../layout.js';
import { Csrf, PostButton, When } from '../form-parts.js';
import { flagUrl } from '../flags/flag-urls.js';
import { ListPager, withQuery } from '../list-pager.js';

const e = encodeURIComponent;

/** Where an archived flag's revive and delete post (and the delete's confirmation page). */
export const archivedFlagUrl = (projectId: string, flag: string, action: 'revive' | 'delete'): string => `/archive/${e(projectId)}/${e(flag)}/${action}`;

export interface ArchivePageProps {
  frame: Frame;
  q: string | undefined;
  page: ListPage<ArchivedRow>;
  /** Whether the viewer may revive and delete archived flags of a project (`DELETE_FEATURE` there). */
  mayRemove: (projectId: string) => boolean;
  notice?: { kind: 'error' | 'done'; message: string } | undefined;
}

function Empty({ q }: { q: string | undefined }) {
  if (q !== undefined) return <div class="empty"><h2>No archived flag matches</h2><p><a class="button" href="/archive">Show every archived flag</a></p></div>;
  return <div class="empty"><h2>The archive is empty</h2><p class="muted">Flags archived in any project appear here, to be revived or deleted for good.</p></div>;
}

/** The whole page. */
export function ArchivePage({ frame, q, page, mayRemove, notice }: ArchivePageProps) {
  const back = withQuery('/archive', { q, page: page.page });
  return (
    <Layout title="Archive" current="archive" {...frame}>
      <div class="page-header">
        <div>
          <h1>Archive</h1>
          <p class="muted">Archived flags of every project. SDKs no longer receive them; revive one to use it again (it comes back off in every environment).</p>
        </div>
      </div>
      {notice ? <p class={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-info'} page-notice`} role={notice.kind === 'error' ? 'alert' : 'status'}>{notice.message}</p> : null}
      <section class="card list-card" aria-labelledby="archive-title">
        <div class="list-head">
          <h2 id="archive-title">Archived flags</h2>
          <form method="get" action="/archive" class="list-search" role="search" aria-label="Search archived flags">
            <label for="archive-q" class="sr-only">Flag name</label>
            <input id="archive-q" type="search" name="q" value={q ?? ''} placeholder="Flag name" maxlength={100} autocomplete="off" />
            <button type="submit" class="button">Search</button>
          </form>
        </div>
        {page.total === 0 ? <Empty q={q} /> : (
          <>
            <div class="table-scroll list-scroll" tabindex={0} role="region" aria-labelledby="archive-title">
              <table class="data-table list-table">
                <thead><tr><th scope="col">Flag</th><th scope="col">Project</th><th scope="col">Type</th><th scope="col">Archived</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                <tbody>
                  {page.rows.map(({ project, projectName, flag }) => (
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
                            <PostButton action={archivedFlagUrl(project, flag.name, 'revive')} csrf={frame.csrf} fields={{ back }} label="Revive" ariaLabel={`Revive ${flag.name}`} />
                            <a class="button button-small button-danger-outline" href={`${archivedFlagUrl(project, flag.name, 'delete')}?back=${e(back)}`} aria-label={`Delete ${flag.name}…`}>Delete…</a>
                          </div>
                        ) : <span class="muted small">Read only</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ListPager list={page}
              href={(n) => withQuery('/archive', { q, page: n })} noun={['archived flag', 'archived flags']} />
          </>
        )}
      </section>
    </Layout>
  );
}

export interface DeleteConfirmProps {
  frame: Frame;
  project: { id: string; name: string };
  flag: string;
  back: string;
}

/** The confirmation step of a delete: names the flag and its project, and what goes with it. */
export function DeleteConfirmPage({ frame, project, flag, back }: DeleteConfirmProps) {
  return (
    <Layout title={`Delete ${flag}?`} current="archive" {...frame}>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol><li><a href={back}>Archive</a></li><li><span aria-current="page">{`Delete ${flag}`}</span></li></ol>
      </nav>
      <section class="card confirm-card" aria-labelledby="confirm-title">
        <h1 id="confirm-title">{`Delete “${flag}” for good?`}</h1>
        <p>The archived flag <strong>{flag}</strong> of project <strong>{project.name}</strong> will be deleted with its strategies, variants and tags. This cannot be undone; its name becomes free for a new flag.</p>
        <form method="post" action={archivedFlagUrl(project.id, flag, 'delete')} class="form-actions">
          <Csrf token={frame.csrf} />
          <input type="hidden" name="back" value={back} />
          <button type="submit" class="button button-danger">{`Delete ${flag}`}</button>
          <a class="button" href={back}>Cancel</a>
        </form>
      </section>
    </Layout>
  );
}
