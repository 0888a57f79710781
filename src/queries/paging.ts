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
