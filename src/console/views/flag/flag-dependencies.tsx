/** @jsxImportSource hono/jsx */
/** The flag's dependencies on other flags of its project (parents), the flags that depend on it, and the add form. */
import type { DependencyForm } from '../../forms/flag.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, PostButton, refusedIn } from '../form-parts.js';
import type { FlagPageModel } from './flag-model.js';

const FORM = 'dependencies';

/** The dependencies section. */
export function FlagDependencies({ model }: { model: FlagPageModel }) {
  const { flag, error } = model;
  const sent = refusedIn<FormDraft<typeof DependencyForm>>(error, FORM)?.draft;
  const parents = flag.dependencies ?? [];
  const editable = model.may.update && !flag.archived;
  const flagLink = (name: string) => <a href={`/projects/${encodeURIComponent(model.project.id)}/features/${encodeURIComponent(name)}`}>{name}</a>;
  return (
    <section class="card" aria-labelledby="dependencies-title">
      <h2 id="dependencies-title">Dependencies</h2>
      {parents.length === 0 ? <p class="muted">This flag depends on no other flag.</p> : (
        <ul class="dependency-list" role="list">
          {parents.map((d) => (
            <li>
              <span>Needs {flagLink(d.feature)} to be <strong>{d.enabled ? 'on' : 'off'}</strong>{d.variants && d.variants.length > 0 ? <> with variant {d.variants.map((name) => <span class="chip">{name}</span>)}</> : null}</span>
              {editable ? <PostButton action={`${model.base}/dependencies/remove`} ifMatch={model.ifMatch} fields={{ parent: d.feature }} label="Remove" ariaLabel={`Remove the dependency on ${d.feature}`} /> : null}
            </li>
          ))}
        </ul>
      )}
      {model.children.length > 0 ? <p>Flags that depend on this one: {model.children.map((name) => <span class="chip">{flagLink(name)}</span>)}</p> : null}
      {editable && model.possibleParents.length > 0 ? (
        <form method="post" action={`${model.base}/dependencies`} class="tag-form" aria-label="Add a dependency">
          <Csrf ifMatch={model.ifMatch} />
          <FormAlert error={error} form={FORM} />
          <div class="field">
            <label for="dependency-parent">Parent flag</label>
            <select id="dependency-parent" name="feature" {...errorAttrs(error, FORM, 'feature', 'dependency-parent')}>
              {model.possibleParents.map((name) => <option value={name} selected={sent?.feature === name}>{name}</option>)}
            </select>
            <FieldError error={error} form={FORM} field="feature" id="dependency-parent" />
          </div>
          <div class="field">
            <label for="dependency-enabled">Parent must be</label>
            <select id="dependency-enabled" name="enabled"><option value="true">On</option><option value="false">Off</option></select>
          </div>
          <div class="field field-wide">
            <label for="dependency-variants">With one of the parent's variants <span class="muted">(optional)</span></label>
            <input id="dependency-variants" name="variants" value={sent?.variants ?? ''} autocapitalize="none" spellcheck={false}
              {...errorAttrs(error, FORM, 'variants', 'dependency-variants', 'dependency-variants-hint')} />
            <p class="hint" id="dependency-variants-hint">Variant names separated by commas; only when the parent must be on.</p>
            <FieldError error={error} form={FORM} field="variants" id="dependency-variants" />
          </div>
          <button type="submit" class="button">Add dependency</button>
        </form>
      ) : null}
    </section>
  );
}
