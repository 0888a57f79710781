/** @jsxImportSource hono/jsx */
/**
 * The flag's variants (the same in every environment): name, weight, stickiness, payload, overrides; and, for
 * those who may, the form that replaces the list (one row per variant and an empty row to add one).
 */
import { variantDraftOf, type VariantDraft } from '../../forms/variants.form.js';
import { Csrf, FormAlert, refusedIn } from '../form-parts.js';
import type { FlagPageModel } from './flag-model.js';
import { VariantRow } from './variant-row.js';

const FORM = 'variants';

function VariantsForm({ model }: { model: FlagPageModel }) {
  const refused = refusedIn<{ variants: VariantDraft[] }>(model.error, FORM);
  const rows = refused?.draft.variants ?? model.flag.variants.map(variantDraftOf);
  const fresh: VariantDraft = { name: '', weightType: 'variable', weight: '', stickiness: model.project.defaultStickiness, payloadType: '', payloadValue: '', overrides: '' };
  return (
    <details class="edit-panel" open={refused !== undefined}>
      <summary class="button button-secondary">Edit variants</summary>
      <form method="post" action={`${model.base}/variants`} class="variants-form" aria-label="Variants">
        <Csrf ifMatch={model.ifMatch} />
        <FormAlert error={model.error} form={FORM} />
        <p class="hint">"Shared equally" variants split what the fixed ones leave of 100%.</p>
        {rows.map((row, n) => <VariantRow error={model.error} form={FORM} idPrefix="variant" n={n} row={row} isNew={false} overrides />)}
        <VariantRow error={model.error} form={FORM} idPrefix="variant" n={rows.length} row={fresh} isNew overrides />
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
