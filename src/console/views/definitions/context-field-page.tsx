/** @jsxImportSource hono/jsx */
/**
 * One context field (`/admin/context-fields/:name`): its edit form (description, stickiness, legal values) or,
 * for those who may not change it, the same as facts; where it is used (strategies of flags, segments); and
 * its deletion behind a confirmation naming what goes.
 */
import type { SegmentRef } from '../../../queries/definition-usage.query.js';
import type { ContextFieldAnswer, ContextFieldStrategy } from '../../../queries/definitions.query.js';
import type { ContextFieldDraft } from '../../forms/definitions.forms.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { Csrf, FormAlert, refusedIn, type Refusal } from '../form-parts.js';
import { CONTEXT_FIELDS, ContextFieldFields, contextFieldUrl } from './context-field-list.js';
import { BackLink, DeleteConfirm, StrategyUses, RowsScript } from './definition-parts.js';
import { Notice } from '../notice.js';

export interface ContextFieldPageProps {
  field: ContextFieldAnswer;
  strategies: ContextFieldStrategy[];
  segments: SegmentRef[];
  mayEdit: boolean;
  /** A refused edit or delete, shown with the API's messages; the edit form as sent. */
  refused?: Refusal<unknown> | undefined;
  notice?: string | undefined;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Facts({ field }: { field: ContextFieldAnswer }) {
  return (
    <>
      <dl class="facts">
        <div><dt>Stickiness</dt><dd>{field.stickiness ? 'Yes' : 'No'}</dd></div>
        <div><dt>Legal values</dt><dd>{field.legalValues.length === 0 ? 'Any value' : field.legalValues.length}</dd></div>
      </dl>
      {field.legalValues.length > 0 ? (
        <div class="table-wrap">
          <table class="mini-table">
            <caption>Legal values</caption>
            <thead><tr><th scope="col">Value</th><th scope="col">Description</th></tr></thead>
            <tbody>{field.legalValues.map((l) => <tr><td><code>{l.value}</code></td><td>{l.description ?? ''}</td></tr>)}</tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

function EditForm({ field, refused }: { field: ContextFieldAnswer; refused: ContextFieldPageProps['refused'] }) {
  const error = refusedIn<ContextFieldDraft>(refused, 'edit');
  const values = error?.draft ?? {
    name: field.name, description: field.description ?? '', stickiness: field.stickiness, legalValues: field.legalValues.map((l) => ({ value: l.value, description: l.description ?? '' })),
  };
  return (
    <form method="post" action={contextFieldUrl(field.name)} class="form-grid" aria-label="Save context field">
      <Csrf />
      <div class="field-wide"><FormAlert error={error} form="edit" /></div>
      <ContextFieldFields form="edit" error={error} values={values} />
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">Save context field</button></div>
    </form>
  );
}

/** What deleting the field takes with it, and what stays. */
function DeleteField({ field, strategies, segments, refused }: Omit<ContextFieldPageProps, 'mayEdit' | 'notice'>) {
  const error = refusedIn(refused, 'delete');
  return (
    <section class="card def-danger" aria-labelledby="cf-delete-title">
      <h2 id="cf-delete-title">Delete this context field</h2>
      <FormAlert error={error} form="delete" />
      <DeleteConfirm action={`${contextFieldUrl(field.name)}/delete`} label={`Delete ${field.name}`}>
        <p>Delete the context field <strong>{field.name}</strong>{field.legalValues.length > 0 ? <> and its {plural(field.legalValues.length, 'legal value', 'legal values')}</> : null}?</p>
        {strategies.length + segments.length > 0
          ? <p>{plural(strategies.length, 'strategy', 'strategies')} and {plural(segments.length, 'segment', 'segments')} constrain on it: their constraints stay, but the field is no longer offered or checked against legal values.</p>
          : <p>No strategy or segment constrains on it.</p>}
      </DeleteConfirm>
    </section>
  );
}

/** The context field page. */
export function ContextFieldPage(props: ContextFieldPageProps) {
  const { field, strategies, segments, mayEdit, notice } = props;
  return (
    <AdminFrame title={field.name} current="context-fields" lead={field.description ?? undefined}>
      <BackLink href={CONTEXT_FIELDS} label="All context fields" />
      <Notice notice={notice} />
      {mayEdit ? <RowsScript /> : null}
      <div class="def-grid">
        <section class="card" aria-labelledby="cf-details-title">
          <h2 id="cf-details-title">{mayEdit ? 'Edit' : 'Details'}</h2>
          {mayEdit ? <EditForm field={field} refused={props.refused} /> : <Facts field={field} />}
        </section>
        <section class="card" aria-labelledby="cf-uses-title">
          <h2 id="cf-uses-title">Used by</h2>
          <h3 class="def-subtitle">Strategies <span class="muted">({strategies.length})</span></h3>
          <StrategyUses uses={strategies} none="No strategy constrains on this field." />
          <h3 class="def-subtitle">Segments <span class="muted">({segments.length})</span></h3>
          {segments.length === 0 ? <p class="muted">No segment constrains on this field.</p> : (
            <ul class="def-uses">
              {segments.map((s) => <li><a href="/admin/segments">{s.name}</a> <span class="muted">{s.project === null ? 'global' : `in ${s.project}`}</span></li>)}
            </ul>
          )}
        </section>
      </div>
      {mayEdit ? <DeleteField field={field} strategies={strategies} segments={segments} refused={props.refused} /> : null}
    </AdminFrame>
  );
}
