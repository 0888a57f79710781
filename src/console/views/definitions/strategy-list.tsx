/** @jsxImportSource hono/jsx */
/**
 * The strategy definitions (`/admin/strategies`): built-in ones first (read-only), then custom ones, with how many
 * strategies of flags use each, and the new-definition form for those who may.
 */
import type { StrategyDefinition } from '../../../domain/definitions.js';
import type { StrategyDefinitionDraft } from '../../forms/definitions.forms.js';
import type { Frame } from '../../layout.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { Csrf, errorAttrs, FieldError, FormAlert, type Refusal } from '../form-parts.js';
import { ListPager, ListToolbar, Notice, type ListPage, RowsScript } from './list-parts.js';
import { ParameterRows } from './row-fields.js';

export const STRATEGIES = '/admin/strategies';

/** The page of one strategy definition. */
export const strategyUrl = (name: string): string => `${STRATEGIES}/${encodeURIComponent(name)}`;

/** What a person calls a definition: its display name or title, else its name. */
export const labelOf = (d: StrategyDefinition): string => d.displayName ?? d.title ?? d.name;

/** A definition with how many strategies of flags use it. */
export type StrategyRow = StrategyDefinition & { uses: number };

export interface StrategyListProps {
  frame: Frame;
  list: ListPage<StrategyRow>;
  mayEdit: boolean;
  refused?: Refusal<StrategyDefinitionDraft> | undefined;
  notice?: string | undefined;
}

/** Built in or custom, and deprecated: as words, never colour alone. */
export function Marks({ definition }: { definition: StrategyDefinition }) {
  return (
    <span class="marks">
      {definition.editable ? <span class="badge">Custom</span> : <span class="badge">Built in</span>}
      {definition.deprecated ? <span class="badge badge-warn">Deprecated</span> : null}
    </span>
  );
}

/** The fields of the new-definition form and of a custom definition's edit form (`name` only when creating). */
export function StrategyFields({ form, error, values }: { form: 'create' | 'edit'; error: Refusal<unknown> | undefined; values: StrategyDefinitionDraft }) {
  const id = (field: string) => `sd-${form}-${field}`;
  return (
    <>
      {form === 'create' ? (
        <div class="field">
          <label for={id('name')}>Name</label>
          <input id={id('name')} name="name" required maxlength={100} value={values.name} autocapitalize="none" spellcheck={false}
            {...errorAttrs(error, form, 'name', id('name'), `${id('name')}-hint`)} />
          <p class="hint" id={`${id('name')}-hint`}>The name SDKs implement it under. It cannot be changed later.</p>
          <FieldError error={error} form={form} field="name" id={id('name')} />
        </div>
      ) : null}
      <div class="field">
        <label for={id('title')}>Title <span class="muted">(optional)</span></label>
        <input id={id('title')} name="title" maxlength={100} value={values.title} {...errorAttrs(error, form, 'title', id('title'))} />
        <FieldError error={error} form={form} field="title" id={id('title')} />
      </div>
      <div class="field field-wide">
        <label for={id('description')}>Description <span class="muted">(optional)</span></label>
        <input id={id('description')} name="description" maxlength={1000} value={values.description} {...errorAttrs(error, form, 'description', id('description'))} />
        <FieldError error={error} form={form} field="description" id={id('description')} />
      </div>
      <ParameterRows form={form} error={error} drafts={values.parameters} />
    </>
  );
}

function NewStrategy({ frame, refused }: { frame: Frame; refused: StrategyListProps['refused'] }) {
  const error = refused;
  return (
    <details class="def-create" open={refused !== undefined}>
      <summary class="button button-primary">New strategy</summary>
      <form method="post" action={STRATEGIES} class="card form-grid" aria-label="New strategy">
        <Csrf token={frame.csrf} />
        <div class="field-wide"><FormAlert error={error} form="create" /></div>
        <StrategyFields form="create" error={error} values={refused?.draft ?? { name: '', title: '', description: '', parameters: [] }} />
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create strategy</button></div>
      </form>
    </details>
  );
}

/** The strategy definition list page. */
export function StrategyList({ frame, list, mayEdit, refused, notice }: StrategyListProps) {
  return (
    <AdminFrame frame={frame} title="Strategies" current="strategies"
      lead="The activation strategies flags can use: the built-in ones flagpole evaluates, and custom ones your SDKs implement.">
      <Notice text={notice} />
      {mayEdit ? <RowsScript frame={frame} /> : null}
      <ListToolbar base={STRATEGIES} q={list.q} label="Search strategies">{mayEdit ? <NewStrategy frame={frame} refused={refused} /> : null}</ListToolbar>
      {list.total === 0 ? (
        <div class="card empty"><h2>No strategy matches</h2><p class="muted">Try another search.</p></div>
      ) : (
        <div class="table-scroll" tabindex={0} role="region" aria-label="Strategies">
          <table class="data-table def-table">
            <thead><tr><th scope="col">Strategy</th><th scope="col">Description</th><th scope="col">Parameters</th><th scope="col">Used by</th></tr></thead>
            <tbody>
              {list.rows.map((d) => (
                <tr class={d.deprecated ? 'def-deprecated' : undefined}>
                  <th scope="row">
                    <a href={strategyUrl(d.name)}>{labelOf(d)}</a>
                    <span class="def-sub"><code>{d.name}</code> <Marks definition={d} /></span>
                  </th>
                  <td class="def-desc">{d.description ?? <span class="muted">No description</span>}</td>
                  <td>{d.parameters.length === 0 ? <span class="muted">None</span> : d.parameters.map((p) => <code class="chip">{p.name}</code>)}</td>
                  <td>{d.uses === 0 ? <span class="muted">Unused</span> : `${d.uses} ${d.uses === 1 ? 'strategy' : 'strategies'}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager base={STRATEGIES} list={list} noun={['strategy', 'strategies']} />
    </AdminFrame>
  );
}
