/** @jsxImportSource hono/jsx */
/**
 * One strategy definition (`/admin/strategies/:name`): a custom one's edit form (title, description, parameters),
 * deprecation and deletion (behind a confirmation naming the strategies of flags that use it); a built-in one
 * read-only (a deprecated one can be reactivated). Where it is used, for both.
 */
import type { StrategyDefinition } from '../../../domain/definitions.js';
import type { ContextFieldStrategy } from '../../../queries/definitions.query.js';
import type { StrategyDefinitionDraft } from '../../forms/definitions.forms.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { Csrf, FormAlert, PostButton, refusedIn, type Refusal } from '../form-parts.js';
import { BackLink, DeleteConfirm, StrategyUses, RowsScript } from './definition-parts.js';
import { labelOf, Marks, STRATEGIES, StrategyFields, strategyUrl } from './strategy-list.js';
import { Notice } from '../notice.js';

export interface StrategyPageProps {
  definition: StrategyDefinition;
  uses: ContextFieldStrategy[];
  mayEdit: boolean;
  refused?: Refusal<unknown> | undefined;
  notice?: string | undefined;
}

function Parameters({ definition }: { definition: StrategyDefinition }) {
  if (definition.parameters.length === 0) return <p class="muted">No parameters.</p>;
  return (
    <div class="table-wrap">
      <table class="mini-table">
        <caption>Parameters</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
        <tbody>
          {definition.parameters.map((p) => <tr><td><code>{p.name}</code></td><td>{p.type}</td><td>{p.required ? 'Yes' : 'No'}</td><td>{p.description}</td></tr>)}
        </tbody>
      </table>
    </div>
  );
}

function EditForm({ definition, refused }: { definition: StrategyDefinition; refused: StrategyPageProps['refused'] }) {
  const error = refusedIn<StrategyDefinitionDraft>(refused, 'edit');
  const values = error?.draft ?? { name: definition.name, title: definition.title ?? '', description: definition.description ?? '', parameters: definition.parameters.map((p) => ({ ...p })) };
  return (
    <form method="post" action={strategyUrl(definition.name)} class="form-grid" aria-label="Save strategy">
      <Csrf />
      <div class="field-wide"><FormAlert error={error} form="edit" /></div>
      <StrategyFields form="edit" error={error} values={values} />
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">Save strategy</button></div>
    </form>
  );
}

function Lifecycle({ definition, uses, refused }: Omit<StrategyPageProps, 'mayEdit' | 'notice'>) {
  const error = refusedIn(refused, 'lifecycle');
  const base = strategyUrl(definition.name);
  const deprecate = definition.deprecated
    ? <PostButton action={`${base}/reactivate`} class="button" label={`Reactivate ${definition.name}`} />
    : <PostButton action={`${base}/deprecate`} class="button" label={`Deprecate ${definition.name}`} />;
  return (
    <section class="card def-danger" aria-labelledby="sd-life-title">
      <h2 id="sd-life-title">{definition.editable ? 'Deprecate or delete' : 'Reactivate'}</h2>
      <p class="muted small">A deprecated strategy is no longer offered for new strategies; flags that use it keep working.</p>
      <FormAlert error={error} form="lifecycle" />
      <div class="actions">
        {definition.editable || definition.deprecated ? deprecate : null}
        {definition.editable ? (
          <DeleteConfirm action={`${base}/delete`} label={`Delete ${definition.name}`}>
            <p>Delete the strategy <strong>{labelOf(definition)}</strong>{definition.parameters.length > 0 ? <> and its {definition.parameters.length} parameter definitions</> : null}?</p>
            {uses.length > 0
              ? <p>{uses.length} {uses.length === 1 ? 'strategy of a flag uses' : 'strategies of flags use'} it: they stay on their flags, naming a strategy that is no longer defined.</p>
              : <p>No flag uses it.</p>}
          </DeleteConfirm>
        ) : null}
      </div>
    </section>
  );
}

/** The strategy definition page. */
export function StrategyPage({ definition, uses, mayEdit, refused, notice }: StrategyPageProps) {
  const editable = mayEdit && definition.editable;
  return (
    <AdminFrame title={labelOf(definition)} current="strategies" lead={definition.description ?? undefined}>
      <BackLink href={STRATEGIES} label="All strategies" />
      <Notice notice={notice} />
      {editable ? <RowsScript /> : null}
      <p class="def-sub"><code>{definition.name}</code> <Marks definition={definition} /></p>
      <div class="def-grid def-grid-single">
        <section class="card" aria-labelledby="sd-details-title">
          <h2 id="sd-details-title">{editable ? 'Edit' : 'Details'}</h2>
          {editable ? <EditForm definition={definition} refused={refused} /> : (
            <>
              {definition.editable ? null : <p class="muted small">Built-in strategies are evaluated by flagpole itself and cannot be changed.</p>}
              <Parameters definition={definition} />
            </>
          )}
        </section>
        <section class="card" aria-labelledby="sd-uses-title">
          <h2 id="sd-uses-title">Used by <span class="muted">({uses.length})</span></h2>
          <StrategyUses uses={uses} none="No strategy of a flag uses it." />
        </section>
      </div>
      {mayEdit && (definition.editable || definition.deprecated) ? <Lifecycle definition={definition} uses={uses} refused={refused} /> : null}
    </AdminFrame>
  );
}
