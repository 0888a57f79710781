/** @jsxImportSource hono/jsx */
/**
 * The one skeleton of the console's server-paged lists: the search (a GET form, so a list's state is its
 * address: shareable and reloadable), the table in a region that scrolls on its own (or whose rows become cards
 * on a phone, `list-table`), and the pager under it. Each list page gives its columns, rows and words.
 */
import type { Child } from 'hono/jsx';
import type { ListPage } from '../../queries/paging.js';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `path` with the non-empty `params` as its query (page 1 left out).
 *
 * @example withQuery('/archive', { q: 'web', page: 2 }) // '/archive?q=web&page=2'
 */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export interface ListSearchProps {
  /** The list's address (the form's action, and Clear's link). */
  action: string;
  q: string | undefined;
  /** The field's label (read by screen readers). */
  label: string;
  placeholder?: string | undefined;
  /** The field's id (one search per page). */
  id: string;
  /** The form's class (its place in the page's layout). */
  class: string;
  /** The form's name (`aria-label`), where the page has several forms. */
  name?: string | undefined;
  maxlength?: number;
  /** Offer Clear once a search is made. */
  clear?: boolean;
}

/** The search of a list, by `?q=`. */
export function ListSearch(p: ListSearchProps) {
  const q = p.q ?? '';
  return (
    <form method="get" action={p.action} class={p.class} role="search" aria-label={p.name}>
      <label for={p.id} class="sr-only">{p.label}</label>
      <input id={p.id} type="search" name="q" value={q} placeholder={p.placeholder ?? p.label} maxlength={p.maxlength ?? 100} autocomplete="off" />
      <button type="submit" class="button">Search</button>
      {p.clear && q !== '' ? <a class="button button-secondary" href={p.action}>Clear</a> : null}
    </form>
  );
}

/** A list's search and, beside it, its "New …" panel (`children`), which opens as a row of its own. */
export function ListToolbar({ children, ...search }: ListSearchProps & { children?: Child }) {
  return (
    <div class="def-toolbar">
      <ListSearch {...search} />
      {children}
    </div>
  );
}

/** What an empty list says: a heading and a line (in a card of its own when the list has no card). */
export function ListEmpty({ title, card, level, children }: { title: Child; card?: boolean; level?: 2 | 3; children?: Child }) {
  return <div class={card ? 'card empty' : 'empty'}>{level === 3 ? <h3>{title}</h3> : <h2>{title}</h2>}{children}</div>;
}

export interface ListTableProps {
  /** The region's name (`aria-label`), or the id of the heading that names it (`labelledBy`). */
  label?: string | undefined;
  labelledBy?: string | undefined;
  /** The table's classes besides `data-table` (`list-table`: rows as cards on a phone). */
  class: string;
  /** The region's classes besides `table-scroll`. */
  scroll?: string | undefined;
  /** The column headings; one with a class is `{ label, class }`. */
  columns: (Child | { label: Child; class: string })[];
  children?: Child;
}

const isClassed = (column: unknown): column is { label: Child; class: string } => typeof column === 'object' && column !== null && 'class' in column && 'label' in column;

/** A list's table in its own scrolling region (keyboard focusable), its header and its rows (`children`). */
export function ListTable(p: ListTableProps) {
  return (
    <div class={p.scroll ? `table-scroll ${p.scroll}` : 'table-scroll'} tabindex={0} role="region" aria-label={p.label} aria-labelledby={p.labelledBy}>
      <table class={`data-table ${p.class}`}>
        <thead><tr>{p.columns.map((column) => (isClassed(column) ? <th scope="col" class={column.class}>{column.label}</th> : <th scope="col">{column}</th>))}</tr></thead>
        <tbody>{p.children}</tbody>
      </table>
    </div>
  );
}

/** A list as a card of its own (the insight pages'): its heading with what goes beside it (a search, a link), then the rest. */
export function ListCard({ id, title, head, children }: { id: string; title: Child; head?: Child; children?: Child }) {
  return (
    <section class="card list-card" aria-labelledby={id}>
      <div class="list-head">
        <h2 id={id}>{title}</h2>
        {head}
      </div>
      {children}
    </section>
  );
}

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
 * @example <ListPager list={pageOf(apps, 2, 50)} href={(n) => withQuery('/applications', { page: n })} noun={['application', 'applications']} />
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

export interface ListRowsProps<T> extends Omit<ListTableProps, 'children'>, Omit<ListPagerProps, 'list'> {
  list: ListPage<T>;
  /** One row of the table. */
  row: (item: T) => Child;
  /** What the list shows when it has no entry (`ListEmpty`). */
  empty: Child;
}

/**
 * A page of a list: its table of rows and the pager under it, or what an empty list says.
 *
 * @example <ListRows list={page} label="Users" class="admin-table" columns={['Name', 'Email']} row={(u) => <tr>…</tr>}
 *   empty={<ListEmpty title="No users yet" card />} href={(n) => withQuery('/admin/users', { q, page: n })} noun={['user', 'users']} />
 */
export function ListRows<T>({ list, row, empty, href, noun, announce, ...table }: ListRowsProps<T>) {
  if (list.total === 0) return <>{empty}</>;
  return (
    <>
      <ListTable {...table}>{list.rows.map(row)}</ListTable>
      <ListPager list={list} href={href} noun={noun} announce={announce} />
    </>
  );
}
