/** @jsxImportSource hono/jsx */
/**
 * One tag type (`/admin/tag-types/:name`): its edit form (description, colour, icon) or the same as facts, the
 * flags carrying tags of it, and its deletion behind a confirmation naming those flags. What deleting does to
 * their tags is the API's to decide: the page shows its answer.
 */
import type { TagType } from '../../../domain/definitions.js';
import type { FlagRef } from '../../../queries/definition-usage.query.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { flagUrl } from '../flags/flag-urls.js';
import type { TagTypeDraft } from '../../forms/definitions.forms.js';
import { Csrf, FormAlert, refusedIn, type Refusal } from '../form-parts.js';
import { BackLink, DeleteConfirm, firstOf } from './definition-parts.js';
import { Swatch, TAG_TYPES, TagTypeFields, tagTypeUrl } from './tag-type-list.js';
import { Notice } from '../notice.js';

export interface TagTypePageProps {
  tagType: TagType;
  flags: FlagRef[];
  mayEdit: boolean;
  refused?: Refusal<unknown> | undefined;
  notice?: string | undefined;
}

function Facts({ tagType }: { tagType: TagType }) {
  return (
    <dl class="facts">
      <div><dt>Colour</dt><dd>{tagType.color === null ? 'None' : <span class="def-name"><Swatch color={tagType.color} /><code>{tagType.color}</code></span>}</dd></div>
      <div><dt>Icon</dt><dd>{tagType.icon ?? 'None'}</dd></div>
    </dl>
  );
}

function EditForm({ tagType, refused }: { tagType: TagType; refused: Refusal<unknown> | undefined }) {
  const error = refusedIn<TagTypeDraft>(refused, 'edit');
  const values = error?.draft ?? { name: tagType.name, description: tagType.description, color: tagType.color ?? '', icon: tagType.icon ?? '' };
  return (
    <form method="post" action={tagTypeUrl(tagType.name)} class="form-grid" aria-label="Save tag type">
      <Csrf />
      <div class="field-wide"><FormAlert error={error} form="edit" /></div>
      <TagTypeFields form="edit" error={error} values={values} />
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">Save tag type</button></div>
    </form>
  );
}

function FlagList({ flags }: { flags: FlagRef[] }) {
  if (flags.length === 0) return <p class="muted">No flag carries a tag of this type.</p>;
  const { shown, more } = firstOf(flags);
  return (
    <>
      <ul class="def-uses">
        {shown.map((f) => <li><a href={flagUrl(f.projectId, f.featureName)}>{f.featureName}</a> <span class="muted">in {f.projectId}{f.archived ? ', archived' : ''}</span></li>)}
      </ul>
      {more > 0 ? <p class="muted small">and {more} more</p> : null}
    </>
  );
}

/** The tag type page. */
export function TagTypePage({ tagType, flags, mayEdit, refused, notice }: TagTypePageProps) {
  const deleteError = refusedIn(refused, 'delete');
  const count = `${flags.length} ${flags.length === 1 ? 'flag carries' : 'flags carry'}`;
  return (
    <AdminFrame title={tagType.name} current="tag-types" lead={tagType.description === '' ? undefined : tagType.description}>
      <BackLink href={TAG_TYPES} label="All tag types" />
      <Notice notice={notice} />
      <div class="def-grid">
        <section class="card" aria-labelledby="tt-details-title">
          <h2 id="tt-details-title">{mayEdit ? 'Edit' : 'Details'}</h2>
          {mayEdit ? <EditForm tagType={tagType} refused={refused} /> : <Facts tagType={tagType} />}
        </section>
        <section class="card" aria-labelledby="tt-uses-title">
          <h2 id="tt-uses-title">Flags with tags of this type <span class="muted">({flags.length})</span></h2>
          <FlagList flags={flags} />
        </section>
      </div>
      {mayEdit ? (
        <section class="card def-danger" aria-labelledby="tt-delete-title">
          <h2 id="tt-delete-title">Delete this tag type</h2>
          <FormAlert error={deleteError} form="delete" />
          <DeleteConfirm action={`${tagTypeUrl(tagType.name)}/delete`} label={`Delete ${tagType.name}`}>
            <p>Delete the tag type <strong>{tagType.name}</strong>?</p>
            {flags.length > 0
              ? <p>{count} a tag of this type{flags.length <= 5 ? <> ({flags.map((f) => f.featureName).join(', ')})</> : null}: those tags go with it, or the service refuses and says why.</p>
              : <p>No flag carries a tag of this type.</p>}
          </DeleteConfirm>
        </section>
      ) : null}
    </AdminFrame>
  );
}
