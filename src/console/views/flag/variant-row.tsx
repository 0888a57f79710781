/** @jsxImportSource hono/jsx */
/** One variant's fields (name, weight, stickiness, payload, and for flag variants overrides), in the flag's variants form and the strategy form. */
import { PAYLOAD_TYPES } from '../../../schemas/payload.schema.js';
import type { VariantDraft } from '../../forms/variants.form.js';
import { errorAttrs, FieldError, idOf, type Refusal } from '../form-parts.js';

/** One variant's fields; `form` is the form a refusal names, `idPrefix` keeps the ids unique on the page. */
export function VariantRow({ error, form, idPrefix, n, row, isNew, overrides }: { error: Refusal<unknown> | undefined; form: string; idPrefix: string; n: number; row: VariantDraft; isNew: boolean; overrides?: boolean }) {
  const FORM = form;
  const name = (field: string) => `variants.${n}.${field}`;
  const id = (field: string) => idOf(idPrefix, String(n), field);
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
      {overrides ? <div class="field field-wide">
        <label for={id('overrides')}>Overrides</label>
        <textarea id={id('overrides')} name={name('overrides')} rows={2} {...errorAttrs(error, FORM, name('overrides'), id('overrides'), `${id('overrides')}-hint`)}>{row.overrides}</textarea>
        <p class="hint" id={`${id('overrides')}-hint`}>One per line: a context field, a colon, its values separated by commas (userId: 7, 12).</p>
        {err('overrides')}
      </div> : null}
      {isNew ? null : <label class="check field-wide"><input type="checkbox" name={name('remove')} /> Remove this variant</label>}
    </fieldset>
  );
}
