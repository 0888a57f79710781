/** @jsxImportSource hono/jsx */
/**
 * The context field pages: the list (`/admin/context-fields`, `?q=` and `?page=`) with the new-field form, and one
 * field's page with its edit form, where it is used, and its deletion. The forms are declared
 * (`forms/definitions.forms.ts`); each post calls the use case the API's route calls, and a refusal shows the
 * page again with the API's messages next to the fields they name.
 */
import type { Context } from 'hono';
import { segmentsUsingContextField } from '../../queries/definition-usage.query.js';
import { contextFieldByName, contextFields, strategiesUsingContextField } from '../../queries/definitions.query.js';
import { ContextFieldParamsSchema } from '../../schemas/definition.schema.js';
import { createContextField, deleteContextField, updateContextField } from '../../use-cases/definitions.use-cases.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { ContextFieldForm, NewContextFieldForm, type ContextFieldDraft } from '../forms/definitions.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { frameOf, renderPage } from '../render.js';
import { CONTEXT_FIELDS, ContextFieldList, contextFieldUrl } from '../views/definitions/context-field-list.js';
import { ContextFieldPage } from '../views/definitions/context-field-page.js';
import { searchPage } from '../../queries/paging.js';
import { done, noticeOf } from '../notices.js';

function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, refused?: Refusal<ContextFieldDraft>): Response {
  const frame = frameOf(c);
  const list = searchPage(contextFields(deps.registry), (f) => [f.name, f.description ?? ''], c.req.query('q'), c.req.query('page'));
  return renderPage(c, <ContextFieldList list={list} mayEdit={frame.permits.has('UPDATE_DEFINITIONS') === true} refused={refused} notice={noticeOf('contextFields', c.req.query('done'))} />);
}

function fieldPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, name: string, refused?: Refusal<unknown>): Response {
  const found = contextFieldByName(deps.registry, name);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const frame = frameOf(c);
  const strategies = strategiesUsingContextField(deps.registry, name);
  return renderPage(c, (
    <ContextFieldPage field={found.value} strategies={strategies.ok ? strategies.value : []} segments={segmentsUsingContextField(deps.registry, name)}
      mayEdit={frame.permits.has('UPDATE_DEFINITIONS') === true} refused={refused} notice={noticeOf('contextFields', c.req.query('done'))} />
  ));
}

export const contextFieldPages = [
  definePage({
    method: 'get', path: CONTEXT_FIELDS, permission: 'READ', summary: 'The context fields, with their legal values and usage',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  definePage({
    method: 'post', path: CONTEXT_FIELDS, permission: 'UPDATE_DEFINITIONS', form: NewContextFieldForm,
    success: { status: 303, description: 'To the new field\'s page' }, summary: 'Create a context field (the new-field form of the list)',
    handle: ({ registry, form, principal }) => createContextField(registry, { ...form, sortOrder: 0, createdAt: null }, principal),
    done: (created) => done(contextFieldUrl(created.name), 'contextFields', 'created'),
    refused: ({ c, deps }, refusal) => listPage(c, deps, refusal),
  }),
  definePage({
    method: 'get', path: `${CONTEXT_FIELDS}/:contextField`, permission: 'READ', params: ContextFieldParamsSchema,
    summary: 'A context field: its legal values, the strategies and segments that constrain on it',
    handle: ({ c, deps, params }) => fieldPage(c, deps, params.contextField),
  }),
  definePage({
    method: 'post', path: `${CONTEXT_FIELDS}/:contextField`, permission: 'UPDATE_DEFINITIONS', params: ContextFieldParamsSchema, form: ContextFieldForm,
    success: { status: 303, description: 'Back to the field\'s page' }, summary: 'Save a context field\'s description, stickiness and legal values',
    handle: ({ registry, params, form, principal }) => updateContextField(registry, { ...form, name: params.contextField }, principal),
    done: (_, { params }) => done(contextFieldUrl(params.contextField), 'contextFields', 'saved'),
    refused: ({ c, deps, params }, refusal) => fieldPage(c, deps, params.contextField, refusal),
  }),
  definePage({
    method: 'post', path: `${CONTEXT_FIELDS}/:contextField/delete`, permission: 'UPDATE_DEFINITIONS', params: ContextFieldParamsSchema, form: buttonForm('delete'),
    success: { status: 303, description: 'To the list' }, summary: 'Delete a context field (constraints on it stay)',
    handle: ({ registry, params, principal }) => deleteContextField(registry, params.contextField, principal),
    done: () => done(CONTEXT_FIELDS, 'contextFields', 'deleted'),
    refused: ({ c, deps, params }, refusal) => fieldPage(c, deps, params.contextField, refusal),
  }),
];
