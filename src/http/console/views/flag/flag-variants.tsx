/** @jsxImportSource hono/jsx */
/**
 * The flag's variants (the same in every environment): name, weight, stickiness, payload, overrides; and, for
 * those who may, the form that replaces the list (one row per variant and an empty row to add one).
 */
import { PAYLOAD_TYPES } from '../../../../schemas/payload.schema.js';
import { variantDraftOf, type VariantDraft } from '../../variant-form-fields.js';
import { Csrf, errorAttrs, FieldError, FormAlert, idOf } from './form-parts.js';
import type { FlagPageModel } from './flag-model.js';

const FORM = 'variants';

function Row({ model, n, row, isNew }: { model: FlagPageModel; n: number; row: VariantDraft; isNew: boolean }) {
  const { error } = model;
  const name = (field: string) => `variants.${n}.${field}`;
  const id = (field: string) => idOf('variant', String(n), field);
  const attrs = (field: string) => errorAttrs(error, FORM, name(field), id(field));
  const err = (field: string) => <FieldError error={error} form={FORM} field={name(field)} id={id(field)} />;
  return (
    <fieldset class={isNew ? 'variant-row constraint-new' : 'variant-row'}>
      <legend>{isNew ? 'Add a variant' : `Variant ${n + 1}`}</legend>
      {isNew ? <input type="hidden" name={name('new')} value="true" /> : null}
      <div class="field"><label for={id('name')}>Name</label><input id={id('name')} name={name('name')} value={row.name} maxlength={100} {...attrs('name')} />{err('name')}</div>
      <div class="field">
        <label for={id('weightType')}>Weight</label>
        <select id={id('weightType')} name={name('weightType')} {...attrs('weightType')}>
          <option value="variable" selected={row.weightType !== 'fix'}>Shared equally</option>
          <option value="fix" selected={row.weightType === 'fix'}>Fixed</option>
        </select>{err('weightType')}
      </div>
      <div class="field"><label for={id('weight')}>Fixed weight (%)</label><input id={id('weight')} name={name('weight')} type="number" min={0} max={100} step={0.1} value={row.weight} {...attrs('weight')} />{err('weight')}</div>
      <div class="field"><label for={id('stickiness')}>Stickiness</label><input id={id('stickiness')} name={name('stickiness')} value={row.stickiness} {...attrs('stickiness')} />{err('stickiness')}</div>
      <div class="field">
        <label for={id('payloadType')}>Payload type</label>
        <select id={id('payloadType')} name={name('payloadType')} {...attrs('payloadType')}>
          <option value="" selected={row.payloadType === ''}>No payload</option>
          {PAYLOAD_TYPES.map((t) => <option value={t} selected={row.payloadType === t}>{t}</option>)}
        </select>{err('payloadType')}
      </div>
      <div class="field"><label for={id('payloadValue')}>Payload</label><input id={id('payloadValue')} name={name('payloadValue')} value={row.payloadValue} {...attrs('payloadValue')} />{err('payloadValue')}</div>
      <div class="field field-wide">
        <label for={id('overrides')}>Overrides</label>
        <textarea id={id('overrides')} name={name('overrides')} rows={2} {...errorAttrs(error, FORM, name('overrides'), id('overrides'), `${id('overrides')}-hint`)}>{row.overrides}</textarea>
        <p class="hint" id={`${id('overrides')}-hint`}>One per line: a context field, a colon, its values separated by commas (userId: 7, 12).</p>
        {err('overrides')}
      </div>
      {isNew ? null : <label class="check field-wide"><input type="checkbox" name={name('remove')} /> Remove this variant</label>}
    </fieldset>
  );
}

function VariantsForm({ model }: { model: FlagPageModel }) {
  const refused = model.error?.form === FORM;
  const rows = refused && model.error?.variants ? model.error.variants : model.flag.variants.map(variantDraftOf);
  const fresh: VariantDraft = { name: '', weightType: 'variable', weight: '', stickiness: model.project.defaultStickiness, payloadType: '', payloadValue: '', overrides: '' };
  return (
    <details class="edit-panel" open={refused}>
      <summary class="button button-secondary">Edit variants</summary>
      <form method="post" action={`${model.base}/variants`} class="variants-form" aria-label="Variants">
        <Csrf token={model.frame.csrf} />
        <FormAlert error={model.error} form={FORM} />
        <p class="hint">"Shared equally" variants split what the fixed ones leave of 100%.</p>
        {rows.map((row, n) => <Row model={model} n={n} row={row} isNew={false} />)}
        <Row model={model} n={rows.length} row={fresh} isNew />
        <div class="form-actions"><button type="submit" class="button button-primary">Save variants</button></div>
      </form>
    </details>
  );
}

/** The variants section. */
export function FlagVariants({ model }: { model: FlagPageModel }) {
  const variants = model.flag.variants;
  return (
    <section class="card" aria-labelledby="variants-title">
      <h2 id="variants-title">Variants</h2>
      {variants.length === 0 ? <p class="muted">No variants: the flag answers on or off only.</p> : (
        <div class="table-wrap">
          <table class="mini-table">
            <thead><tr><th scope="col">Name</th><th scope="col">Weight</th><th scope="col">Stickiness</th><th scope="col">Payload</th><th scope="col">Overrides</th></tr></thead>
            <tbody>
              {variants.map((v) => (
                <tr>
                  <td>{v.name}</td>
                  <td>{(v.weight / 10).toFixed(1)}% <span class="muted">{v.weightType === 'fix' ? 'fixed' : 'shared'}</span></td>
                  <td>{v.stickiness}</td>
                  <td>{v.payload ? <><span class="muted">{v.payload.type}</span> <code>{v.payload.value}</code></> : '—'}</td>
                  <td>{(v.overrides ?? []).length === 0 ? '—' : (v.overrides ?? []).map((o) => <span class="chip">{o.contextName}: {o.values.join(', ')}</span>)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {model.may.variants && !model.flag.archived ? <VariantsForm model={model} /> : null}
    </section>
  );
}
