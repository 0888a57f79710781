/** @jsxImportSource hono/jsx */
/**
 * The segment list (`/admin/segments`): a page of segments with where each is used (flags and projects, as the
 * service counts uses when it decides a delete), a search by name, and a "New segment" link for those who may
 * write one.
 */
import type { Segment } from '../../../domain/segment.js';
import type { SegmentUsageSummary } from '../../../queries/segment-usage.query.js';
import type { Frame } from '../../layout.js';
import type { ListPage } from '../../../queries/paging.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { ListPager } from '../list-pager.js';

/** One row: the segment, where it is used, and whether the viewer may change it. */
export interface SegmentRow {
  segment: Segment;
  usage: SegmentUsageSummary;
  mayWrite: boolean;
}

export interface SegmentListProps {
  frame: Frame;
  /** The page of matching segments. */
  list: ListPage<SegmentRow>;
  q: string;
  mayCreate: boolean;
  notice?: string | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const listUrl = (q: string, page: number) => `/admin/segments?${new URLSearchParams({ ...(q ? { q } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;

function UsedBy({ usage }: { usage: SegmentUsageSummary }) {
  if (usage.uses.length === 0) return <span class="muted">Not used</span>;
  const defaults = usage.uses.filter((u) => u.feature === null).length;
  return (
    <div class="used-by">
      <span>{`${plural(usage.flagCount, 'flag')} · ${plural(usage.uses.length - defaults, 'strategy', )}`}{defaults > 0 ? ` · ${plural(defaults, 'default strategy')}` : ''}</span>
      <span class="muted small">{`in ${usage.projects.join(', ')}`}</span>
    </div>
  );
}

/** The whole page. */
export function SegmentList(p: SegmentListProps) {
  return (
    <AdminFrame frame={p.frame} title="Segments" current="segments" lead="Named sets of constraints that strategies share. A segment of a project is used by that project's strategies only."
      actions={p.mayCreate ? <a class="button button-primary" href="/admin/new-segment">New segment</a> : undefined}>
      {p.notice ? <p class="alert alert-info" role="status">{p.notice}</p> : null}
      <form method="get" action="/admin/segments" class="segment-search" role="search">
        <label for="segment-q">Search segments</label>
        <input type="search" id="segment-q" name="q" value={p.q} maxlength={100} />
        <button type="submit" class="button button-small">Search</button>
      </form>
      {p.list.total === 0
        ? <div class="card empty"><h2>{p.q ? 'No segments match' : 'No segments yet'}</h2><p class="muted">{p.q ? 'Nothing matches the search.' : 'A segment names a set of constraints once, for many strategies to use.'}</p></div>
        : (
          <div class="card table-card">
            <div class="table-scroll admin-table-scroll" tabindex={0} role="region" aria-label="Segments">
              <table class="data-table segment-table">
                <thead><tr><th scope="col">Name</th><th scope="col">Project</th><th scope="col">Constraints</th><th scope="col">Used by</th></tr></thead>
                <tbody>
                  {p.list.rows.map(({ segment, usage }) => (
                    <tr>
                      <th scope="row">
                        <a href={`/admin/segments/${segment.id}`} class="segment-name">{segment.name}</a>
                        {segment.description ? <span class="muted small segment-desc">{segment.description}</span> : null}
                      </th>
                      <td>{segment.project === null ? <span class="muted">Global</span> : <a href={`/projects/${encodeURIComponent(segment.project)}/settings`}>{segment.project}</a>}</td>
                      <td>{segment.constraints.length}</td>
                      <td><UsedBy usage={usage} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ListPager list={p.list} href={(n) => listUrl(p.q, n)} noun={['segment', 'segments']} announce />
          </div>
        )}
    </AdminFrame>
  );
}
