/** @jsxImportSource hono/jsx */
/** The pager under a server-paged list: where this page sits, and links to the previous and next pages. */
import type { ListPage } from '../../queries/paging.js';

const count = (n: number) => n.toLocaleString('en-US');

export interface ListPagerProps {
  list: Pick<ListPage<unknown>, 'rows' | 'page' | 'pages' | 'total' | 'offset'>;
  /** The address of page `n` (the list's other query parameters kept). */
  href: (n: number) => string;
  /** What the rows are: [one, many]. */
  noun: readonly [string, string];
  /** Read out when it changes (`role="status"`), for a list that is the page's main content. */
  announce?: boolean;
}

/**
 * "51–100 of 1,204 applications", Previous and Next (inert at either end).
 *
 * @example <ListPager list={pageOf(apps, 2, 50)} href={(n) => `/applications?page=${n}`} noun={['application', 'applications']} />
 */
export function ListPager({ list, href, noun, announce }: ListPagerProps) {
  const { page, pages, total, offset } = list;
  const first = total === 0 ? 0 : offset + 1;
  const last = offset + list.rows.length;
  return (
    <nav class="pager" aria-label="Pages">
      <p class="pager-status" role={announce ? 'status' : undefined}>{`${count(first)}–${count(last)} of ${count(total)} ${total === 1 ? noun[0] : noun[1]}`}</p>
      <div class="pager-links">
        {page > 1 ? <a class="button button-small" href={href(page - 1)} rel="prev">Previous</a> : <span class="button button-small" aria-disabled="true">Previous</span>}
        {page < pages ? <a class="button button-small" href={href(page + 1)} rel="next">Next</a> : <span class="button button-small" aria-disabled="true">Next</span>}
      </div>
    </nav>
  );
}

/**
 * `path` with the non-empty `params` as its query.
 *
 * @example withQuery('/archive', { q: 'web', page: 2 }) // '/archive?q=web&page=2'
 */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
