/** One page of a list the server pages (`?page=`), numbered from 1. */
export interface ListPage<T> {
  rows: T[];
  /** This page's number, within 1 to `pages`. */
  page: number;
  pages: number;
  /** Entries on every page together. */
  total: number;
  /** How many entries come before this page's first. */
  offset: number;
}

/**
 * The page `page` (clamped to those that exist) of `items`, `size` per page.
 *
 * @example pageOf([1, 2, 3], 2, 2) // { rows: [3], page: 2, pages: 2, total: 3, offset: 2 }
 */
export function pageOf<T>(items: readonly T[], page: number, size: number): ListPage<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const at = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const offset = (at - 1) * size;
  return { rows: items.slice(offset, offset + size), page: at, pages, total: items.length, offset };
}

/** One page of a list searched by `?q=`, with the search as applied (trimmed). */
export type SearchedPage<T> = ListPage<T> & { q: string };

/**
 * The entries of `all` that `q` finds (one of `text(entry)` contains it, ignoring case; an empty `q` finds all),
 * page `page` of them, `size` per page.
 *
 * @example searchPage(fields, (f) => [f.name, f.description ?? ''], 'reg', 2) // the second 50 fields naming "reg"
 */
export function searchPage<T>(all: readonly T[], text: (item: T) => readonly string[], q: string | undefined, page: number | string | undefined, size = 50): SearchedPage<T> {
  const query = (q ?? '').trim().slice(0, 100);
  const needle = query.toLowerCase();
  const found = needle === '' ? all : all.filter((item) => text(item).some((t) => t.toLowerCase().includes(needle)));
  return { ...pageOf(found, typeof page === 'number' ? page : Number.parseInt(page ?? '1', 10), size), q: query };
}
