/** @jsxImportSource hono/jsx */
/**
 * The tag type pages: the list (`/admin/tag-types`, `?q=` and `?page=`) with the new-type form, and one type's
 * page with its edit form, the flags carrying it and its deletion. Each post validates with the API's schema and
 * calls the use case the API's route calls; whatever the use case answers to a deletion (a refusal naming the
 * flags, or done) is what the page shows.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { flagsWithTagType, tagTypeUseCounts } from '../../../queries/definition-usage.query.js';
import { tagTypeByName, tagTypes } from '../../../queries/tags.query.js';
import { formatIssues } from '../../../schemas/issues.js';
import { CreateTagTypeSchema, TagTypeParamsSchema, UpdateTagTypeSchema } from '../../../schemas/tag.schema.js';
import { createTagType, deleteTagType, updateTagType } from '../../../use-cases/tags.use-cases.js';
import { apiError, STATUS, type ErrorKind } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { fieldOfMessage, textOrNull } from '../definition-form-fields.js';
import { frameOf, renderPage } from '../render.js';
import { pageOf } from '../views/definitions/list-parts.js';
import { TAG_TYPES, TagTypeList, tagTypeUrl } from '../views/definitions/tag-type-list.js';
import { TagTypePage } from '../views/definitions/tag-type-page.js';
import type { PageError } from '../views/flag/form-parts.js';

const PAGE = { status: 200, description: 'An HTML page' };
const page = { tag: 'Console', authentication: 'session', page: true } as const;
const FIELDS = ['name', 'description', 'color', 'icon'];

/** The confirmations a change leads to (`?done=`): fixed texts, never one from the address. */
const NOTICES: Record<string, string> = { created: 'Tag type created.', saved: 'Tag type saved.', deleted: 'Tag type deleted.' };

const noticeOf = (c: Context<AppEnv>): string | undefined => NOTICES[c.req.query('done') ?? ''];

type Refusal = PageError & { status: number };

function refusal(c: Context<AppEnv>, form: string, kind: ErrorKind, message: string): Refusal {
  const { _csrf: _, ...values } = c.get('form') ?? {};
  return { status: STATUS[kind], form, field: form === 'delete' ? null : fieldOfMessage(message, FIELDS, kind), message, values };
}

function listPage(c: Context<AppEnv>, deps: AppDeps, refused?: Refusal): Response {
  const frame = frameOf(c, deps);
  const counts = tagTypeUseCounts(deps.registry);
  const rows = tagTypes(deps.registry).map((t) => ({ ...t, flags: counts.get(t.name) ?? 0 }));
  const list = pageOf(rows, (t) => [t.name, t.description], new URL(c.req.url).searchParams);
  return renderPage(c, <TagTypeList frame={frame} list={list} mayEdit={frame.permits?.has('UPDATE_TAG_TYPE') === true} refused={refused} notice={noticeOf(c)} />, refused?.status ?? 200);
}

function typePage(c: Context<AppEnv>, deps: AppDeps, name: string, refused?: Refusal): Response {
  const found = tagTypeByName(deps.registry, name);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const frame = frameOf(c, deps);
  return renderPage(c, (
    <TagTypePage frame={frame} tagType={found.value} flags={flagsWithTagType(deps.registry, name)} mayEdit={frame.permits?.has('UPDATE_TAG_TYPE') === true}
      refused={refused} notice={noticeOf(c)} />
  ), refused?.status ?? 200);
}

/** The fields both forms send, as the API's body. */
function bodyOf(form: Record<string, string>) {
  return { description: (form['description'] ?? '').trim(), color: (form['color'] ?? '').trim(), icon: textOrNull(form['icon']) };
}

export const tagTypePages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: TAG_TYPES, permission: 'READ', success: PAGE,
    summary: 'The tag types, with how many flags carry each',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  defineRoute({
    ...page, method: 'post', path: TAG_TYPES, permission: 'UPDATE_TAG_TYPE', success: { status: 303, description: 'To the new type\'s page' },
    summary: 'Create a tag type (the new-type form of the list)',
    handle: async ({ c, deps, principal }) => {
      const form = c.get('form') ?? {};
      const parsed = v.safeParse(CreateTagTypeSchema, { name: (form['name'] ?? '').trim(), ...bodyOf(form) });
      if (!parsed.success) return listPage(c, deps, refusal(c, 'create', 'ValidationError', formatIssues(parsed.issues).message));
      const created = await createTagType(deps.registry, { ...parsed.output, color: parsed.output.color || null }, principal);
      if (!created.ok) return listPage(c, deps, refusal(c, 'create', created.error.kind, created.error.message));
      return c.redirect(`${tagTypeUrl(created.value.name)}?done=created`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'get', path: `${TAG_TYPES}/:name`, permission: 'READ', params: TagTypeParamsSchema, success: PAGE,
    summary: 'A tag type and the flags carrying tags of it',
    handle: ({ c, deps, params }) => typePage(c, deps, params.name),
  }),
  defineRoute({
    ...page, method: 'post', path: `${TAG_TYPES}/:name`, permission: 'UPDATE_TAG_TYPE', params: TagTypeParamsSchema,
    success: { status: 303, description: 'Back to the type\'s page' },
    summary: 'Save a tag type\'s description, colour and icon',
    handle: async ({ c, deps, params, principal }) => {
      const parsed = v.safeParse(UpdateTagTypeSchema, bodyOf(c.get('form') ?? {}));
      if (!parsed.success) return typePage(c, deps, params.name, refusal(c, 'edit', 'ValidationError', formatIssues(parsed.issues).message));
      const { description, icon, color } = parsed.output;
      const saved = await updateTagType(deps.registry, { name: params.name, description, icon, color: color || null }, principal);
      if (!saved.ok) {
        if (saved.error.kind === 'NotFoundError') throw apiError('NotFoundError', saved.error.message);
        return typePage(c, deps, params.name, refusal(c, 'edit', saved.error.kind, saved.error.message));
      }
      return c.redirect(`${tagTypeUrl(params.name)}?done=saved`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${TAG_TYPES}/:name/delete`, permission: 'UPDATE_TAG_TYPE', params: TagTypeParamsSchema,
    success: { status: 303, description: 'To the list' },
    summary: 'Delete a tag type',
    handle: async ({ c, deps, params, principal }) => {
      const deleted = await deleteTagType(deps.registry, params.name, principal);
      if (!deleted.ok) {
        if (deleted.error.kind === 'NotFoundError') throw apiError('NotFoundError', deleted.error.message);
        return typePage(c, deps, params.name, refusal(c, 'delete', deleted.error.kind, deleted.error.message));
      }
      return c.redirect(`${TAG_TYPES}?done=deleted`, 303);
    },
  }),
];
