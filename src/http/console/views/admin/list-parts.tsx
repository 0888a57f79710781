/** @jsxImportSource hono/jsx */
/** Pieces of the administration's server-paged lists: the search form, the pager and a done notice. */
import type { ListPage } from '../../../../queries/paging.js';

/** The address of a list's page with the search `q` (an empty search and page 1 are left out). */
export function listUrl(base: string, q: string, page: number): string {
  const params = new URLSearchParams();
  if (q !== '') params.set('q', q);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search === '' ? base : `${base}?${search}`;
}

/** A GET form that finds entries by `q`. */
export function SearchForm({ action, q, label, placeholder }: { action: string; q: string; label: string; placeholder: string }) {
  return (
    <form method="get" action={action} class="list-search" role="search">
      <label for="list-q" class="sr-only">{label}</label>
      <input id="list-q" type="search" name="q" value={q} placeholder={placeholder} maxlength={200} autocomplete="off" />
      <button type="submit" class="button">Search</button>
      {q !== '' ? <a class="button button-secondary" href={action}>Clear</a> : null}
    </form>
  );
}

/** Where the page sits among the entries, with links to the previous and next pages. */
export function ListPager<T>({ base, q, list, noun }: { base: string; q: string; list: ListPage<T>; noun: [string, string] }) {
  const first = list.total === 0 ? 0 : list.offset + 1;
  const last = list.offset + list.rows.length;
  return (
    <nav class="pager" aria-label="Pages">
      <p class="pager-status">{`${first}–${last} of ${list.total} ${list.total === 1 ? noun[0] : noun[1]}`}</p>
      <div class="pager-links">
        {list.page > 1 ? <a class="button button-small" href={listUrl(base, q, list.page - 1)} rel="prev">Previous</a> : null}
        {list.page < list.pages ? <a class="button button-small" href={listUrl(base, q, list.page + 1)} rel="next">Next</a> : null}
      </div>
    </nav>
  );
}

/** A fixed confirmation after a change (`?done=`), announced to screen readers. */
export function DoneNotice({ text }: { text: string | undefined }) {
  return text ? <p class="alert alert-info done-notice" role="status">{text}</p> : null;
}
