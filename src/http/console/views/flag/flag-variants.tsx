/** @jsxImportSource hono/jsx */
/** The flag's variants (the same in every environment): name, weight, stickiness, payload, overrides. */
import type { FlagPageModel } from './flag-model.js';

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
                  <td>{(v.weight / 10).toFixed(1)}% <span class="muted">{v.weightType}</span></td>
                  <td>{v.stickiness}</td>
                  <td>{v.payload ? <><span class="muted">{v.payload.type}</span> <code>{v.payload.value}</code></> : '—'}</td>
                  <td>{(v.overrides ?? []).length === 0 ? '—' : (v.overrides ?? []).map((o) => <span class="chip">{o.contextName}: {o.values.join(', ')}</span>)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
