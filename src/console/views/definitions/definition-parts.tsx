/** @jsxImportSource hono/jsx */
/**
 * What the definition pages share: the list page (search, "New …" panel, table, pager), the delete confirmation
 * naming what goes, the used-by lists and the link back to the list.
 */
import type { Child } from 'hono/jsx';
import { Script } from '../../layout.js';
import type { ContextFieldStrategy } from '../../../queries/definitions.query.js';
import type { SearchedPage } from '../../../queries/paging.js';
import { AdminFrame, type AdminPlace } from '../admin/admin-frame.js';
import { flagUrl } from '../flags/flag-urls.js';
import { Csrf, errorAttrs, FieldError, FormAlert, PostButton, type Refusal } from '../form-parts.js';
import { ListEmpty, ListRows, ListToolbar, withQuery } from '../list.js';
import { Notice } from '../notice.js';

export interface DefinitionListProps<T> {
  title: string;
  current: AdminPlace;
  lead: string;
  /** The list's address. */
  base: string;
  list: SearchedPage<T>;
  /** What the entries are: [one, many]; the search is "Search <many>". */
  noun: readonly [string, string];
  columns: string[];
  row: (item: T) => Child;
  /** What an empty list says: [heading, line], and those when a search finds nothing. */
  empty: { none: readonly [string, string]; unmatched: readonly [string, string] };
  notice: string | undefined;
  /** The "New …" panel (`NewDefinition`, posting to `base`), for those who may create one; undefined for others. */
  create?: NewDefinitionSpec | undefined;
  /** Whether the page has a form with rows (`static/definitions.js`). */
  rows?: boolean;
}

/** A definition list page: the search and "New …" panel, then the table of one page of entries and the pager. */
export function DefinitionList<T>(p: DefinitionListProps<T>) {
  const [heading, line] = p.list.q === '' ? p.empty.none : p.empty.unmatched;
  const many = p.noun[1];
  const label = `Search ${many}`;
  return (
    <AdminFrame title={p.title} current={p.current} lead={p.lead}>
      <Notice notice={p.notice} />
      {p.rows ? <RowsScript /> : null}
      <ListToolbar action={p.base} q={p.list.q} id="def-q" class="def-search" label={label} name={label} clear>
        {p.create ? <NewDefinition action={p.base} {...p.create} /> : null}
      </ListToolbar>
      <ListRows list={p.list} label={p.title} class="def-table" empty={<ListEmpty title={heading} card><p class="muted">{line}</p></ListEmpty>}
        columns={p.columns} row={p.row} href={(n) => withQuery(p.base, { q: p.list.q, page: n })} noun={p.noun} />
    </AdminFrame>
  );
}

/** What a definition list's "New …" panel shows: its button's and its submit's words, its fields, the refusal to show again. */
export interface NewDefinitionSpec {
  label: string;
  submit: string;
  refused: Refusal<unknown> | undefined;
  fields: Child;
}

/** The "New …" panel of a definition list: a `<details>` opening the create form (open again, with the messages, when refused). */
function NewDefinition({ action, label, submit, refused, fields }: NewDefinitionSpec & { action: string }) {
  return (
    <details class="def-create" open={refused !== undefined}>
      <summary class="button button-primary">{label}</summary>
      <form method="post" action={action} class="card form-grid" aria-label={label}>
        <Csrf />
        <div class="field-wide"><FormAlert error={refused} form="create" /></div>
        {fields}
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">{submit}</button></div>
      </form>
    </details>
  );
}

/**
 * The name field of a new definition (a context field's, a strategy's): required, as typed (no capitals or
 * spelling fixed by a phone), with its hint and its message from the refusal; a name cannot be changed later.
 */
export function DefinitionNameField({ error, id, value, hint }: { error: Refusal<unknown> | undefined; id: string; value: string; hint: Child }) {
  return (
    <div class="field">
      <label for={id}>Name</label>
      <input id={id} name="name" required maxlength={100} value={value} autocapitalize="none" spellcheck={false}
        {...errorAttrs(error, 'create', 'name', id, `${id}-hint`)} />
      <p class="hint" id={`${id}-hint`}>{hint}</p>
      <FieldError error={error} form="create" field="name" id={id} />
    </div>
  );
}

/** A link back to a list, above a definition's page. */
export function BackLink({ href, label }: { href: string; label: string }) {
  return <p class="def-back"><a href={href}>← {label}</a></p>;
}

/**
 * A delete button behind a confirmation that says what goes with it (`children`); the post carries the CSRF
 * token. A `<details>` panel: no script needed.
 */
export function DeleteConfirm({ action, label, children }: { action: string; label: string; children?: Child }) {
  return (
    <details class="confirm">
      <summary class="button button-danger-outline">{label}…</summary>
      <div class="confirm-panel" role="group" aria-label={label}>
        {children}
        <PostButton action={action} class="button button-danger" label={label} />
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
export function RowsScript() {
  return <Script name="definitions.js" />;
}
