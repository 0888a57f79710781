/** @jsxImportSource hono/jsx */
/**
 * The flag table itself: column headers that sort (links, with `aria-sort` on the sorted one), one `<tbody>`
 * per flag ({@link FlagRowBody}), and the pager. On a phone each flag is a card: its name, its marks, then each
 * environment's switch named by the environment, with nothing to scroll sideways; the sort links stay above.
 */
import type { FlagTablePage } from '../../../queries/flag-table/flag-table.query.js';
import { flagTableSearch, type FlagTableQuery, type FlagTableSort } from '../../../schemas/flag-table.schema.js';
import { FlagRowBody, type RowNote, type RowPermissions } from './flag-row.js';
import { eventsUrl, tableUrl } from './flag-urls.js';

export interface FlagTableProps {
  projectId: string;
  query: FlagTableQuery;
  page: FlagTablePage;
  may: RowPermissions;
  now: number;
  /** Notes under rows (a refusal or the default-strategy offer), by flag name. */
  notes?: ReadonlyMap<string, RowNote> | undefined;
}

const DEFAULT_ORDER: Record<FlagTableSort, 'asc' | 'desc'> = { name: 'asc', type: 'asc', createdAt: 'desc', lastSeenAt: 'desc' };

function SortHeader({ projectId, query, sort, label, sticky }: { projectId: string; query: FlagTableQuery; sort: FlagTableSort; label: string; sticky?: boolean }) {
  const current = query.sort === sort;
  const order = current ? (query.order === 'asc' ? 'desc' : 'asc') : DEFAULT_ORDER[sort];
  const href = tableUrl(projectId, flagTableSearch({ ...query, sort, order, offset: 0 }));
  const arrow = current ? (query.order === 'asc' ? '▲' : '▼') : '';
  return (
    <th scope="col" aria-sort={current ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined} class={[current ? 'sorted' : '', sticky ? 'col-name' : ''].join(' ').trim() || undefined}>
      <a href={href} class="sort-link">{label}<span class="sort-arrow" aria-hidden="true">{arrow}</span></a>
    </th>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

/** Previous and next pages, and where this page sits. */
export function Pager({ projectId, query, page }: { projectId: string; query: FlagTableQuery; page: FlagTablePage }) {
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = Math.min(page.offset + page.rows.length, page.total);
  const previous = page.offset > 0 ? tableUrl(projectId, flagTableSearch({ ...query, offset: Math.max(0, page.offset - page.limit) })) : undefined;
  const next = page.offset + page.limit < page.total ? tableUrl(projectId, flagTableSearch({ ...query, offset: page.offset + page.limit })) : undefined;
  return (
    <nav class="pager" aria-label="Pages">
      <p class="pager-status" role="status">{`${count(first)}–${count(last)} of ${count(page.total)} ${page.total === 1 ? 'flag' : 'flags'}`}</p>
      <div class="pager-links">
        {previous ? <a class="button button-small" href={previous} rel="prev">Previous</a> : <span class="button button-small" aria-disabled="true">Previous</span>}
        {next ? <a class="button button-small" href={next} rel="next">Next</a> : <span class="button button-small" aria-disabled="true">Next</span>}
      </div>
    </nav>
  );
}

/** The table and its pager. */
export function FlagTableView({ projectId, query, page, may, now, notes }: FlagTableProps) {
  const back = tableUrl(projectId, flagTableSearch(query));
  return (
    <>
      <div class="table-scroll" tabindex={0} role="region" aria-labelledby="flags-title" hx-ext="sse" sse-connect={eventsUrl(projectId)}>
        <table class={may.select ? 'flag-table has-select' : 'flag-table'}>
          <caption class="sr-only">{`Flags, sorted by ${query.sort} ${query.order === 'asc' ? 'ascending' : 'descending'}`}</caption>
          <thead>
            <tr>
              {may.select ? <th scope="col" class="col-select"><span class="sr-only">Select</span></th> : null}
              <SortHeader projectId={projectId} query={query} sort="name" label="Name" sticky />
              <SortHeader projectId={projectId} query={query} sort="type" label="Type" />
              <SortHeader projectId={projectId} query={query} sort="createdAt" label="Created" />
              <SortHeader projectId={projectId} query={query} sort="lastSeenAt" label="Last seen" />
              <th scope="col" class="col-status">Status</th>
              <th scope="col" class="col-tags">Tags</th>
              {page.environments.map((env) => <th scope="col" class="col-switch"><span class="env-name">{env.name}</span>{env.type !== env.name ? <span class="env-type">{env.type}</span> : null}</th>)}
            </tr>
          </thead>
          {page.rows.map((row) => <FlagRowBody projectId={projectId} row={row} may={may} back={back} now={now} note={notes?.get(row.name)} />)}
        </table>
      </div>
      <Pager projectId={projectId} query={query} page={page} />
    </>
  );
}
