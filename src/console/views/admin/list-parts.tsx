/** @jsxImportSource hono/jsx */
/** Pieces of the administration's server-paged lists: the search form, the pager and a done notice. */
import type { ListPage } from '../../../queries/paging.js';
import { ListPager as Pager } from '../list-pager.js';

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
  return <Pager list={list} href={(n) => listUrl(base, q, n)} noun={noun} />;
}

/** A fixed confirmation after a change (`?done=`), announced to screen readers. */
export function DoneNotice({ text }: { text: string | undefined }) {
  return text ? <p class="alert alert-info done-notice" role="status">{text}</p> : null;
}
