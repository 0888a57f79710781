/** @jsxImportSource hono/jsx */
/**
 * The constraint rows of a form (a strategy's, a segment's): one fieldset per constraint with every operator of
 * the contract, and one empty row that adds a constraint. Field names are the API body's paths
 * (`constraints.<n>.values`), read back by `constraintRows` (forms/constraints.form.ts).
 */
import { CONSTRAINT_OPERATORS, OPERATOR_LABELS, type ConstraintDraft } from '../../forms/constraints.form.js';
import { errorAttrs, FieldError, idOf, type Refusal } from '../form-parts.js';

/** A select of `options` with `current` kept even when it is not one of them. */
export function Options({ options, current }: { options: string[]; current: string }) {
  const all = options.includes(current) || current === '' ? options : [current, ...options];
  return <>{all.map((o) => <option value={o} selected={o === current}>{o}</option>)}</>;
}

interface EditorProps {
  error: Refusal<unknown> | undefined;
  /** Which form of the page this is (a refusal names it). */
  form: string;
  /** The context fields a constraint may test. */
  contextFields: string[];
  constraints: ConstraintDraft[];
}

function ConstraintRow({ p, row, c, isNew }: { p: EditorProps; row: number; c: ConstraintDraft; isNew: boolean }) {
  const { error } = p;
  const name = (field: string) => `constraints.${row}.${field}`;
  const id = (field: string) => idOf(p.form, 'c', String(row), field);
  const attrs = (field: string, hint?: string) => errorAttrs(error, p.form, name(field), id(field), hint);
  return (
    <fieldset class={isNew ? 'constraint constraint-new' : 'constraint'}>
      <legend>{isNew ? 'Add a constraint' : `Constraint ${row + 1}`}</legend>
      {isNew ? <input type="hidden" name={name('new')} value="true" /> : null}
      <div class="field">
        <label for={id('contextName')}>Context field</label>
        <select id={id('contextName')} name={name('contextName')} {...attrs('contextName')}>
          {isNew ? <option value="" selected={c.contextName === ''}>Choose a field</option> : null}
          <Options options={p.contextFields} current={c.contextName} />
        </select>
        <FieldError error={error} form={p.form} field={name('contextName')} id={id('contextName')} />
      </div>
      <div class="field">
        <label for={id('operator')}>Operator</label>
        <select id={id('operator')} name={name('operator')} {...attrs('operator')}>
          {CONSTRAINT_OPERATORS.map((op) => <option value={op} selected={op === c.operator}>{`${OPERATOR_LABELS[op]} (${op})`}</option>)}
        </select>
        <FieldError error={error} form={p.form} field={name('operator')} id={id('operator')} />
      </div>
      <div class="field field-wide">
        <label for={id('values')}>Values</label>
        <textarea id={id('values')} name={name('values')} rows={2} {...attrs('values', `${id('values')}-hint`)}>{c.values}</textarea>
        <p class="hint" id={`${id('values')}-hint`}>One per line. Number, date and version operators take the first line.</p>
        <FieldError error={error} form={p.form} field={name('values')} id={id('values')} />
      </div>
      <div class="field field-wide checks">
        <label class="check"><input type="checkbox" name={name('inverted')} checked={c.inverted} /> Invert (NOT)</label>
        <label class="check"><input type="checkbox" name={name('caseInsensitive')} checked={c.caseInsensitive} /> Case-insensitive</label>
        {isNew ? null : <label class="check"><input type="checkbox" name={name('remove')} /> Remove this constraint</label>}
      </div>
    </fieldset>
  );
}

/**
 * The constraints of a form, then a row to add one.
 *
 * @example <ConstraintEditor error={error} form="segment" contextFields={['userId']} constraints={draft.constraints} />
 */
export function ConstraintEditor(p: EditorProps) {
  const fresh: ConstraintDraft = { contextName: '', operator: 'IN', values: '', inverted: false, caseInsensitive: false };
  return (
    <div class="field-wide constraints">
      <h5 class="form-subtitle">Constraints</h5>
      {p.constraints.map((c, row) => <ConstraintRow p={p} row={row} c={c} isNew={false} />)}
      <ConstraintRow p={p} row={p.constraints.length} c={fresh} isNew />
    </div>
  );
}
