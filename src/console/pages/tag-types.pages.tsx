/** @jsxImportSource hono/jsx */
/**
 * The tag type pages: the list (`/admin/tag-types`, `?q=` and `?page=`) with the new-type form, and one type's
 * page with its edit form, the flags carrying it and its deletion. The forms are declared
 * (`forms/definitions.forms.ts`); each post calls the use case the API's route calls; whatever the use case
 * answers to a deletion (a refusal naming the flags, or done) is what the page shows.
 */
import type { Context } from 'hono';
import { flagsWithTagType, tagTypeUseCounts } from '../../queries/definition-usage.query.js';
import { tagTypeByName, tagTypes } from '../../queries/tags.query.js';
import { TagTypeParamsSchema } from '../../schemas/tag.schema.js';
import { createTagType, deleteTagType, updateTagType } from '../../use-cases/tags.use-cases.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { NewTagTypeForm, TagTypeForm, type TagTypeDraft } from '../forms/definitions.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { frameOf, renderPage } from '../render.js';
import { searchPage } from '../../queries/paging.js';
import { TAG_TYPES, TagTypeList, tagTypeUrl } from '../views/definitions/tag-type-list.js';
import { TagTypePage } from '../views/definitions/tag-type-page.js';
import { done, noticeOf } from '../notices.js';

function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, refused?: Refusal<TagTypeDraft>): Response {
  const frame = frameOf(c);
  const counts = tagTypeUseCounts(deps.registry);
  const rows = tagTypes(deps.registry).map((t) => ({ ...t, flags: counts.get(t.name) ?? 0 }));
  const list = searchPage(rows, (t) => [t.name, t.description], c.req.query('q'), c.req.query('page'));
  return renderPage(c, <TagTypeList list={list} mayEdit={frame.permits.has('UPDATE_TAG_TYPE') === true} refused={refused} notice={noticeOf('tagTypes', c.req.query('done'))} />);
}

function typePage(c: Context<ConsoleEnv>, deps: ConsoleDeps, name: string, refused?: Refusal<unknown>): Response {
  const found = tagTypeByName(deps.registry, name);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const frame = frameOf(c);
  return renderPage(c, (
    <TagTypePage tagType={found.value} flags={flagsWithTagType(deps.registry, name)} mayEdit={frame.permits.has('UPDATE_TAG_TYPE') === true}
      refused={refused} notice={noticeOf('tagTypes', c.req.query('done'))} />
  ));
}

export const tagTypePages = [
  definePage({
    method: 'get', path: TAG_TYPES, permission: 'READ', summary: 'The tag types, with how many flags carry each',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  definePage({
    method: 'post', path: TAG_TYPES, permission: 'UPDATE_TAG_TYPE', form: NewTagTypeForm,
    success: { status: 303, description: 'To the new type\'s page' }, summary: 'Create a tag type (the new-type form of the list)',
    handle: ({ registry, form, principal }) => createTagType(registry, { ...form, color: form.color || null }, principal),
    done: (created) => done(tagTypeUrl(created.name), 'tagTypes', 'created'),
    refused: ({ c, deps }, refusal) => listPage(c, deps, refusal),
  }),
  definePage({
    method: 'get', path: `${TAG_TYPES}/:name`, permission: 'READ', params: TagTypeParamsSchema, summary: 'A tag type and the flags carrying tags of it',
    handle: ({ c, deps, params }) => typePage(c, deps, params.name),
  }),
  definePage({
    method: 'post', path: `${TAG_TYPES}/:name`, permission: 'UPDATE_TAG_TYPE', params: TagTypeParamsSchema, form: TagTypeForm,
    success: { status: 303, description: 'Back to the type\'s page' }, summary: 'Save a tag type\'s description, colour and icon',
    handle: ({ registry, params, form, principal }) => updateTagType(registry, { name: params.name, description: form.description, icon: form.icon, color: form.color || null }, principal),
    done: (_, { params }) => done(tagTypeUrl(params.name), 'tagTypes', 'saved'),
    refused: ({ c, deps, params }, refusal) => typePage(c, deps, params.name, refusal),
  }),
  definePage({
    method: 'post', path: `${TAG_TYPES}/:name/delete`, permission: 'UPDATE_TAG_TYPE', params: TagTypeParamsSchema, form: buttonForm('delete'),
    success: { status: 303, description: 'To the list' }, summary: 'Delete a tag type',
    handle: ({ registry, params, principal }) => deleteTagType(registry, params.name, principal),
    done: () => done(TAG_TYPES, 'tagTypes', 'deleted'),
    refused: ({ c, deps, params }, refusal) => typePage(c, deps, params.name, refusal),
  }),
];
