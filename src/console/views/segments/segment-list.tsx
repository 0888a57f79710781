/** @jsxImportSource hono/jsx */
/**
 * The segment list (`/admin/segments`): a page of segments with where each is used (flags and projects, as the
 * service counts uses when it decides a delete), a search by name, and a "New segment" link for those who may
 * write one.
 */
import type { Segment } from '../../../domain/segment.js';
import type { SegmentUsageSummary } from '../../../queries/segment-usage.query.js';
import type { SearchedPage } from '../../../queries/paging.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { ListEmpty, ListRows, ListSearch, withQuery } from '../list.js';
import { Notice } from '../notice.js';

/** One row: the segment, where it is used, and whether the viewer may change it. */
export interface SegmentRow {
  segment: Segment;
  usage: SegmentUsageSummary;
  mayWrite: boolean;
}

export interface SegmentListProps {
  /** The page of matching segments, with the search. */
  list: SearchedPage<SegmentRow>;
  mayCreate: boolean;
  notice?: string | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

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
  const { q } = p.list;
  return (
    <AdminFrame title="Segments" current="segments" lead="Named sets of constraints that strategies share. A segment of a project is used by that project's strategies only."
      actions={p.mayCreate ? <a class="button button-primary" href="/admin/new-segment">New segment</a> : undefined}>
      <Notice notice={p.notice} />
      <ListSearch action="/admin/segments" q={q} id="segment-q" class="segment-search" label="Search segments" />
      {p.list.total === 0
        ? <ListEmpty title={q ? 'No segments match' : 'No segments yet'} card><p class="muted">{q ? 'Nothing matches the search.' : 'A segment names a set of constraints once, for many strategies to use.'}</p></ListEmpty>
        : (
          <div class="card table-card">
            <ListRows list={p.list} empty={null} label="Segments" scroll="admin-table-scroll" class="segment-table" columns={['Name', 'Project', 'Constraints', 'Used by']}
              href={(n) => withQuery('/admin/segments', { q, page: n })} noun={['segment', 'segments']} announce
              row={({ segment, usage }) => (
                <tr>
                  <th scope="row">
                    <a href={`/admin/segments/${segment.id}`} class="segment-name">{segment.name}</a>
                    {segment.description ? <span class="muted small segment-desc">{segment.description}</span> : null}
                  </th>
                  <td>{segment.project === null ? <span class="muted">Global</span> : <a href={`/projects/${encodeURIComponent(segment.project)}/settings`}>{segment.project}</a>}</td>
                  <td>{segment.constraints.length}</td>
                  <td><UsedBy usage={usage} /></td>
                </tr>
              )} />
          </div>
        )}
    </AdminFrame>
  );
}
