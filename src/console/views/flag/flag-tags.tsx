/** @jsxImportSource hono/jsx */
/** The flag's tags: the list, a remove button per tag and the add form (type:value). */
import type { TagForm } from '../../forms/flag.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, PostButton, refusedIn } from '../form-parts.js';
import type { FlagPageModel } from './flag-model.js';

const FORM = 'tags';

/** The tags section. */
export function FlagTags({ model }: { model: FlagPageModel }) {
  const { flag, error } = model;
  const tags = flag.tags ?? [];
  const editable = model.may.update && !flag.archived;
  const sent = refusedIn<FormDraft<typeof TagForm>>(error, FORM)?.draft;
  return (
    <section class="card" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      {tags.length === 0 ? <p class="muted">No tags</p> : (
        <ul class="tag-list" role="list">
          {tags.map((tag) => (
            <li class="tag">
              <span>{tag.type}:{tag.value}</span>
              {editable ? <PostButton action={`${model.base}/tags/remove`} ifMatch={model.ifMatch} fields={{ type: tag.type, value: tag.value }} class="tag-remove" label="×" ariaLabel={`Remove tag ${tag.type}:${tag.value}`} /> : null}
            </li>
          ))}
        </ul>
      )}
      {editable ? (
        <form method="post" action={`${model.base}/tags`} class="tag-form" aria-label="Add a tag">
          <Csrf ifMatch={model.ifMatch} />
          <FormAlert error={error} form={FORM} />
          <div class="field">
            <label for="tag-type">Tag type</label>
            <select id="tag-type" name="type" {...errorAttrs(error, FORM, 'type', 'tag-type')}>
              {model.tagTypes.map((t) => <option value={t} selected={sent?.type === t}>{t}</option>)}
            </select>
            <FieldError error={error} form={FORM} field="type" id="tag-type" />
          </div>
          <div class="field">
            <label for="tag-value">Tag value</label>
            <input id="tag-value" name="value" required maxlength={50} value={sent?.value ?? ''} {...errorAttrs(error, FORM, 'value', 'tag-value')} />
            <FieldError error={error} form={FORM} field="value" id="tag-value" />
          </div>
          <button type="submit" class="button">Add tag</button>
        </form>
      ) : null}
    </section>
  );
}
