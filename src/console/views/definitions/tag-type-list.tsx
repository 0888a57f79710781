/** @jsxImportSource hono/jsx */
/** The tag types (`/admin/tag-types`): the list with how many flags carry each, and the new-type form for those who may. */
import type { TagType } from '../../../domain/definitions.js';
import type { TagTypeDraft } from '../../forms/definitions.forms.js';
import { errorAttrs, FieldError, type Refusal } from '../form-parts.js';
import { DefinitionList } from './definition-parts.js';
import type { SearchedPage as ListPage } from '../../../queries/paging.js';

export const TAG_TYPES = '/admin/tag-types';

/** The page of one tag type. */
export const tagTypeUrl = (name: string): string => `${TAG_TYPES}/${encodeURIComponent(name)}`;

/** A tag type with how many flags carry a tag of it. */
export type TagTypeRow = TagType & { flags: number };

export interface TagTypeListProps {
  list: ListPage<TagTypeRow>;
  mayEdit: boolean;
  refused?: Refusal<TagTypeDraft> | undefined;
  notice?: string | undefined;
}

/** The tag type's colour as a swatch (an SVG fill: the page's CSP allows no inline style). */
export function Swatch({ color }: { color: string | null }) {
  if (color === null) return null;
  return (
    <svg class="swatch" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
      <rect width="12" height="12" rx="3" fill={color} />
    </svg>
  );
}

/** The fields of the new-type form and of a type's edit form (`name` only when creating). */
export function TagTypeFields({ form, error, values }: { form: 'create' | 'edit'; error: Refusal<unknown> | undefined; values: TagTypeDraft }) {
  const id = (field: string) => `tt-${form}-${field}`;
  const text = (field: keyof TagTypeDraft, label: string, optional: boolean, max: number, hint?: string) => (
    <div class="field">
      <label for={id(field)}>{label}{optional ? <> <span class="muted">(optional)</span></> : null}</label>
      <input id={id(field)} name={field} maxlength={max} value={values[field]} autocapitalize="none" spellcheck={field === 'description'}
        {...errorAttrs(error, form, field, id(field), hint ? `${id(field)}-hint` : undefined)} />
      {hint ? <p class="hint" id={`${id(field)}-hint`}>{hint}</p> : null}
      <FieldError error={error} form={form} field={field} id={id(field)} />
    </div>
  );
  return (
    <>
      {form === 'create' ? text('name', 'Name', false, 50, 'For example team or area; 2 to 50 characters. It cannot be changed later.') : null}
      {text('description', 'Description', true, 1000)}
      {text('color', 'Colour', true, 7, 'As #RRGGBB, for example #4f46e5.')}
      {text('icon', 'Icon', true, 100, 'The name of an icon, as Unleash\'s web UI knows them.')}
    </>
  );
}

function Row({ type: t }: { type: TagTypeRow }) {
  return (
    <tr>
      <th scope="row"><span class="def-name"><Swatch color={t.color} /><a class="flag-name" href={tagTypeUrl(t.name)}>{t.name}</a></span></th>
      <td class="def-desc">{t.description === '' ? <span class="muted">No description</span> : t.description}</td>
      <td>{t.flags === 0 ? <span class="muted">None</span> : `${t.flags} ${t.flags === 1 ? 'flag' : 'flags'}`}</td>
    </tr>
  );
}

/** The tag type list page. */
export function TagTypeList({ list, mayEdit, refused, notice }: TagTypeListProps) {
  return (
    <DefinitionList title="Tag types" current="tag-types" base={TAG_TYPES} list={list} notice={notice}
      lead="The kinds of tag flags can carry, such as a team or an area of the product."
      create={mayEdit ? { label: 'New tag type', submit: 'Create tag type', refused, fields: <TagTypeFields form="create" error={refused} values={refused?.draft ?? { name: '', description: '', color: '', icon: '' }} /> } : undefined}
      noun={['tag type', 'tag types']}
      empty={{ none: ['No tag types', 'Create one before tagging flags.'], unmatched: ['No tag type matches', 'Try another search.'] }}
      columns={['Name', 'Description', 'Flags']} row={(t) => <Row type={t} />} />
  );
}
