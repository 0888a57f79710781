/** @jsxImportSource hono/jsx */
/**
 * What the definition pages share: a page of a list filtered by `?q=` (both in the address, so a list can be
 * shared and reloaded), the search form, the pager, the confirmation after a change, the delete confirmation
 * naming what goes, and the link back to the list.
 */
import type { Child } from 'hono/jsx';
import type { ContextFieldStrategy } from '../../../queries/definitions.query.js';
import type { Frame } from '../../layout.js';
import { flagUrl } from '../flags/flag-urls.js';
import { PostButton } from '../form-parts.js';
import { ListPager as Pager } from '../list-pager.js';
import { pageOf as pagedOf, type ListPage as Paged } from '../../../queries/paging.js';

/** How many entries a list page shows. */
export const LIST_PAGE_SIZE = 50;

/** One page of a list filtered by `?q=`, with the filter as given (trimmed). */
export type ListPage<T> = Paged<T> & { q: string };

/**
 * The entries of `all` matching `q` (any of `text(entry)` contains it, ignoring case), page `page` of them.
 *
 * @example pageOf(fields, (f) => [f.name, f.description ?? ''], new URLSearchParams('q=reg&page=2'))
 */
export function pageOf<T>(all: readonly T[], text: (item: T) => string[], search: URLSearchParams, size = LIST_PAGE_SIZE): ListPage<T> {
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const needle = q.toLowerCase();
  const matching = needle === '' ? all : all.filter((item) => text(item).some((t) => t.toLowerCase().includes(needle)));
  return { ...pagedOf(matching, Number.parseInt(search.get('page') ?? '1', 10), size), q };
}

const listUrl = (base: string, q: string, page: number): string => {
  const search = new URLSearchParams();
  if (q !== '') search.set('q', q);
  if (page > 1) search.set('page', String(page));
  const text = search.toString();
  return text === '' ? base : `${base}?${text}`;
};

/** The search form of a list (a GET form: the filter stays in the address). */
export function ListSearch({ base, q, label }: { base: string; q: string; label: string }) {
  return (
    <form method="get" action={base} class="def-search" role="search" aria-label={label}>
      <label for="def-q" class="sr-only">{label}</label>
      <input type="search" id="def-q" name="q" value={q} maxlength={100} placeholder={label} />
      <button type="submit" class="button button-secondary">Search</button>
      {q !== '' ? <a class="button button-secondary" href={base}>Clear</a> : null}
    </form>
  );
}

/** The search form and, beside it, the list's "New …" panel (`children`), which opens as a row of its own. */
export function ListToolbar({ base, q, label, children }: { base: string; q: string; label: string; children?: Child }) {
  return (
    <div class="def-toolbar">
      <ListSearch base={base} q={q} label={label} />
      {children}
    </div>
  );
}

/** Where the page sits in the list, and the previous and next pages. */
export function ListPager({ base, list, noun }: { base: string; list: ListPage<unknown>; noun: [string, string] }) {
  return <Pager list={list} href={(n) => listUrl(base, list.q, n)} noun={noun} />;
}

/** The confirmation of a change (`?done=`), a fixed text chosen by the page. */
export function Notice({ text }: { text: string | undefined }) {
  return text ? <p class="alert alert-info page-notice" role="status">{text}</p> : null;
}

/** A link back to a list, above a definition's page. */
export function BackLink({ href, label }: { href: string; label: string }) {
  return <p class="def-back"><a href={href}>← {label}</a></p>;
}

/**
 * A delete button behind a confirmation that says what goes with it (`children`); the post carries the CSRF
 * token. A `<details>` panel: no script needed.
 */
export function DeleteConfirm({ action, csrf, label, children }: { action: string; csrf: string | undefined; label: string; children?: Child }) {
  return (
    <details class="confirm">
      <summary class="button button-danger-outline">{label}…</summary>
      <div class="confirm-panel" role="group" aria-label={label}>
        {children}
        <PostButton action={action} csrf={csrf} class="button button-danger" label={label} />
      </div>
    </details>
  );
}

/** At most `max` of `items` and how many more there are, for used-by lists. */
export function firstOf<T>(items: readonly T[], max = 100): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** The strategies of flags that constrain on a field (or name a strategy definition), linked to their flags. */
export function StrategyUses({ uses, none }: { uses: ContextFieldStrategy[]; none: string }) {
  if (uses.length === 0) return <p class="muted">{none}</p>;
  const { shown, more } = firstOf(uses);
  return (
    <>
      <ul class="def-uses">
        {shown.map((u) => (
          <li><a href={flagUrl(u.projectId, u.featureName)}>{u.featureName}</a> <span class="muted">in {u.projectId}, {u.environment}</span> <code class="chip">{u.strategyName}</code></li>
        ))}
      </ul>
      {more > 0 ? <p class="muted small">and {more} more</p> : null}
    </>
  );
}

/** The row editors' script (`static/definitions.js`), on pages with a form that has rows. */
export function RowsScript({ frame }: { frame: Frame }) {
  return <script src={frame.assets.url('definitions.js')} defer></script>;
}
