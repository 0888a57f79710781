/** @jsxImportSource hono/jsx */
/**
 * The context field pages: the list (`/admin/context-fields`, `?q=` and `?page=`) with the new-field form, and one
 * field's page with its edit form, where it is used, and its deletion. Each post validates with the API's schema
 * and calls the use case the API's route calls; a refusal shows the page again with the API's message next to the
 * field it names.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { segmentsUsingContextField } from '../../../queries/definition-usage.query.js';
import { contextFieldByName, contextFields, strategiesUsingContextField } from '../../../queries/definitions.query.js';
import { ContextFieldParamsSchema, CreateContextFieldSchema, UpdateContextFieldSchema } from '../../../schemas/definition.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { createContextField, deleteContextField, updateContextField } from '../../../use-cases/definitions.use-cases.js';
import { apiError, STATUS, type ErrorKind } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { fieldOfMessage, legalValuesBodyOf, legalValuesFromForm, textOrNull, type LegalValueDraft } from '../definition-form-fields.js';
import { frameOf, renderPage } from '../render.js';
import { CONTEXT_FIELDS, ContextFieldList, contextFieldUrl } from '../views/definitions/context-field-list.js';
import { ContextFieldPage } from '../views/definitions/context-field-page.js';
import { pageOf } from '../views/definitions/list-parts.js';
import type { PageError } from '../views/flag/form-parts.js';

const PAGE = { status: 200, description: 'An HTML page' };
const page = { tag: 'Console', authentication: 'session', page: true } as const;
const FIELDS = ['name', 'description', 'legalValues'];

/** The confirmations a change leads to (`?done=`): fixed texts, never one from the address. */
const NOTICES: Record<string, string> = { created: 'Context field created.', saved: 'Context field saved.', deleted: 'Context field deleted.' };

const noticeOf = (c: Context<AppEnv>): string | undefined => NOTICES[c.req.query('done') ?? ''];

interface Refusal {
  status: number;
  error: PageError;
  legalValues: LegalValueDraft[];
}

/** A refusal of `form` with `message`: the status of its kind, the fields as sent. */
function refusal(c: Context<AppEnv>, form: string, kind: ErrorKind, message: string, legalValues: LegalValueDraft[]): Refusal {
  const { _csrf: _, ...values } = c.get('form') ?? {};
  return { status: STATUS[kind], error: { form, field: fieldOfMessage(message, FIELDS, kind), message, values }, legalValues };
}

function listPage(c: Context<AppEnv>, deps: AppDeps, refused?: Refusal): Response {
  const frame = frameOf(c, deps);
  const list = pageOf(contextFields(deps.registry), (f) => [f.name, f.description ?? ''], new URL(c.req.url).searchParams);
  return renderPage(c, <ContextFieldList frame={frame} list={list} mayEdit={frame.permits?.has('UPDATE_DEFINITIONS') === true} refused={refused} notice={noticeOf(c)} />, refused?.status ?? 200);
}

function fieldPage(c: Context<AppEnv>, deps: AppDeps, name: string, refused?: Refusal): Response {
  const found = contextFieldByName(deps.registry, name);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const frame = frameOf(c, deps);
  const strategies = strategiesUsingContextField(deps.registry, name);
  return renderPage(c, (
    <ContextFieldPage frame={frame} field={found.value} strategies={strategies.ok ? strategies.value : []} segments={segmentsUsingContextField(deps.registry, name)}
      mayEdit={frame.permits?.has('UPDATE_DEFINITIONS') === true} refused={refused} notice={noticeOf(c)} />
  ), refused?.status ?? 200);
}

/** The body the API's context field schemas validate, from the form. */
function bodyOf(form: Record<string, string>, legalValues: LegalValueDraft[]) {
  return { description: textOrNull(form['description']), stickiness: form['stickiness'] === 'on', legalValues: legalValuesBodyOf(legalValues) };
}

export const contextFieldPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: CONTEXT_FIELDS, permission: 'READ', success: PAGE,
    summary: 'The context fields, with their legal values and usage',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  defineRoute({
    ...page, method: 'post', path: CONTEXT_FIELDS, permission: 'UPDATE_DEFINITIONS', success: { status: 303, description: 'To the new field\'s page' },
    summary: 'Create a context field (the new-field form of the list)',
    handle: async ({ c, deps, principal }) => {
      const form = c.get('form') ?? {};
      const legalValues = legalValuesFromForm(form);
      const parsed = v.safeParse(CreateContextFieldSchema, { name: (form['name'] ?? '').trim(), ...bodyOf(form, legalValues) });
      if (!parsed.success) return listPage(c, deps, refusal(c, 'create', 'ValidationError', formatIssues(parsed.issues).message, legalValues));
      const { name, description, stickiness } = parsed.output;
      const created = await createContextField(deps.registry, { name, description, stickiness, legalValues: parsed.output.legalValues, sortOrder: 0, createdAt: null }, principal);
      if (!created.ok) return listPage(c, deps, refusal(c, 'create', created.error.kind, created.error.message, legalValues));
      return c.redirect(`${contextFieldUrl(created.value.name)}?done=created`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'get', path: `${CONTEXT_FIELDS}/:contextField`, permission: 'READ', params: ContextFieldParamsSchema, success: PAGE,
    summary: 'A context field: its legal values, the strategies and segments that constrain on it',
    handle: ({ c, deps, params }) => fieldPage(c, deps, params.contextField),
  }),
  defineRoute({
    ...page, method: 'post', path: `${CONTEXT_FIELDS}/:contextField`, permission: 'UPDATE_DEFINITIONS', params: ContextFieldParamsSchema,
    success: { status: 303, description: 'Back to the field\'s page' },
    summary: 'Save a context field\'s description, stickiness and legal values',
    handle: async ({ c, deps, params, principal }) => {
      const form = c.get('form') ?? {};
      const legalValues = legalValuesFromForm(form);
      const parsed = v.safeParse(UpdateContextFieldSchema, bodyOf(form, legalValues));
      if (!parsed.success) return fieldPage(c, deps, params.contextField, refusal(c, 'edit', 'ValidationError', formatIssues(parsed.issues).message, legalValues));
      const { description, stickiness } = parsed.output;
      const saved = await updateContextField(deps.registry, { name: params.contextField, description, stickiness, legalValues: parsed.output.legalValues }, principal);
      if (!saved.ok) {
        if (saved.error.kind === 'NotFoundError') throw apiError('NotFoundError', saved.error.message);
        return fieldPage(c, deps, params.contextField, refusal(c, 'edit', saved.error.kind, saved.error.message, legalValues));
      }
      return c.redirect(`${contextFieldUrl(params.contextField)}?done=saved`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'post', path: `${CONTEXT_FIELDS}/:contextField/delete`, permission: 'UPDATE_DEFINITIONS', params: ContextFieldParamsSchema,
    success: { status: 303, description: 'To the list' },
    summary: 'Delete a context field (constraints on it stay)',
    handle: async ({ c, deps, params, principal }) => {
      const deleted = await deleteContextField(deps.registry, params.contextField, principal);
      if (!deleted.ok) {
        if (deleted.error.kind === 'NotFoundError') throw apiError('NotFoundError', deleted.error.message);
        return fieldPage(c, deps, params.contextField, refusal(c, 'delete', deleted.error.kind, deleted.error.message, []));
      }
      return c.redirect(`${CONTEXT_FIELDS}?done=deleted`, 303);
    },
  }),
];
