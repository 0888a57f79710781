/** @jsxImportSource hono/jsx */
/**
 * The strategy definitions (`/admin/strategies`): built-in ones first (read-only), then custom ones, with how many
 * strategies of flags use each, and the new-definition form for those who may.
 */
import type { StrategyDefinition } from '../../../domain/definitions.js';
import type { StrategyDefinitionDraft } from '../../forms/definitions.forms.js';
import { errorAttrs, FieldError, type Refusal } from '../form-parts.js';
import { DefinitionList, DefinitionNameField } from './definition-parts.js';
import type { SearchedPage as ListPage } from '../../../queries/paging.js';
import { ParameterRows } from './row-fields.js';

export const STRATEGIES = '/admin/strategies';

/** The page of one strategy definition. */
export const strategyUrl = (name: string): string => `${STRATEGIES}/${encodeURIComponent(name)}`;

/** What a person calls a definition: its display name or title, else its name. */
export const labelOf = (d: StrategyDefinition): string => d.displayName ?? d.title ?? d.name;

/** A definition with how many strategies of flags use it. */
export type StrategyRow = StrategyDefinition & { uses: number };

export interface StrategyListProps {
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
      {form === 'create' ? <DefinitionNameField error={error} id={id('name')} value={values.name} hint={'The name SDKs implement it under. It cannot be changed later.'} /> : null}
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

function Row({ definition: d }: { definition: StrategyRow }) {
  return (
    <tr class={d.deprecated ? 'def-deprecated' : undefined}>
      <th scope="row">
        <a href={strategyUrl(d.name)}>{labelOf(d)}</a>
        <span class="def-sub"><code>{d.name}</code> <Marks definition={d} /></span>
      </th>
      <td class="def-desc">{d.description ?? <span class="muted">No description</span>}</td>
      <td>{d.parameters.length === 0 ? <span class="muted">None</span> : d.parameters.map((p) => <code class="chip">{p.name}</code>)}</td>
      <td>{d.uses === 0 ? <span class="muted">Unused</span> : `${d.uses} ${d.uses === 1 ? 'strategy' : 'strategies'}`}</td>
    </tr>
  );
}

/** The strategy definition list page. */
export function StrategyList({ list, mayEdit, refused, notice }: StrategyListProps) {
  return (
    <DefinitionList title="Strategies" current="strategies" base={STRATEGIES} list={list} notice={notice} rows={mayEdit}
      lead="The activation strategies flags can use: the built-in ones flagpole evaluates, and custom ones your SDKs implement."
      create={mayEdit ? { label: 'New strategy', submit: 'Create strategy', refused, fields: <StrategyFields form="create" error={refused} values={refused?.draft ?? { name: '', title: '', description: '', parameters: [] }} /> } : undefined}
      noun={['strategy', 'strategies']}
      empty={{ none: ['No strategy matches', 'Try another search.'], unmatched: ['No strategy matches', 'Try another search.'] }}
      columns={['Strategy', 'Description', 'Parameters', 'Used by']} row={(d) => <Row definition={d} />} />
  );
}
