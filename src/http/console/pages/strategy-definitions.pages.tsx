/** @jsxImportSource hono/jsx */
/**
 * The strategy definition pages: the list (`/admin/strategies`, `?q=` and `?page=`) with the new-definition form,
 * and one definition's page: a custom one edited, deprecated, reactivated or deleted; a built-in one read-only.
 * Each post validates with the API's schema and calls the use case the API's route calls; a refusal shows the
 * page again with the API's message next to the field it names.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { definitionUseCounts, strategiesUsingDefinition } from '../../../queries/definition-usage.query.js';
import { strategyDefinitionByName, strategyDefinitions } from '../../../queries/definitions.query.js';
import { CreateStrategyDefinitionSchema, StrategyDefinitionParamsSchema, UpdateStrategyDefinitionSchema } from '../../../schemas/definition.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import {
  createStrategyDefinition, deleteStrategyDefinition, deprecateStrategyDefinition, updateStrategyDefinition,
} from '../../../use-cases/definitions.use-cases.js';
import { apiError, STATUS, type ErrorKind } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { fieldOfMessage, parametersFromForm, textOrNull, type ParameterDraft } from '../definition-form-fields.js';
import { frameOf, renderPage } from '../render.js';
import { pageOf } from '../views/definitions/list-parts.js';
import { labelOf, STRATEGIES, StrategyList, strategyUrl } from '../views/definitions/strategy-list.js';
import { StrategyPage } from '../views/definitions/strategy-page.js';
import type { PageError } from '../views/flag/form-parts.js';

const PAGE = { status: 200, description: 'An HTML page' };
const BACK = { status: 303, description: 'Back to the strategy\'s page' };
const page = { tag: 'Console', authentication: 'session', page: true } as const;
const FIELDS = ['name', 'title', 'description', 'parameters'];

/** The confirmations a change leads to (`?done=`): fixed texts, never one from the address. */
const NOTICES: Record<string, string> = {
  created: 'Strategy created.', saved: 'Strategy saved.', deleted: 'Strategy deleted.', deprecated: 'Strategy deprecated.', reactivated: 'Strategy reactivated.',
};

const noticeOf = (c: Context<AppEnv>): string | undefined => NOTICES[c.req.query('done') ?? ''];

interface Refusal {
  status: number;
  error: PageError;
  parameters: ParameterDraft[];
}

function refusal(c: Context<AppEnv>, form: string, kind: ErrorKind, message: string, parameters: ParameterDraft[]): Refusal {
  const { _csrf: _, ...values } = c.get('form') ?? {};
  return { status: STATUS[kind], error: { form, field: form === 'lifecycle' ? null : fieldOfMessage(message, FIELDS, kind), message, values }, parameters };
}

function listPage(c: Context<AppEnv>, deps: AppDeps, refused?: Refusal): Response {
  const frame = frameOf(c, deps);
  const counts = definitionUseCounts(deps.registry);
  const rows = strategyDefinitions(deps.registry).map((d) => ({ ...d, uses: counts.get(d.name) ?? 0 }));
  const list = pageOf(rows, (d) => [d.name, labelOf(d), d.description ?? ''], new URL(c.req.url).searchParams);
  return renderPage(c, <StrategyList frame={frame} list={list} mayEdit={frame.permits?.has('UPDATE_DEFINITIONS') === true} refused={refused} notice={noticeOf(c)} />, refused?.status ?? 200);
}

function definitionPage(c: Context<AppEnv>, deps: AppDeps, name: string, refused?: Refusal): Response {
  const found = strategyDefinitionByName(deps.registry, name);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const frame = frameOf(c, deps);
  return renderPage(c, (
    <StrategyPage frame={frame} definition={found.value} uses={strategiesUsingDefinition(deps.registry, name)} mayEdit={frame.permits?.has('UPDATE_DEFINITIONS') === true}
      refused={refused} notice={noticeOf(c)} />
  ), refused?.status ?? 200);
}

/** The fields both forms send, as the API's body. */
function bodyOf(form: Record<string, string>, parameters: ParameterDraft[]) {
  return { title: textOrNull(form['title']), description: textOrNull(form['description']), parameters };
}

/** A write on a definition whose refusal shows its page again (an unknown one: the "not found" page). */
async function change(c: Context<AppEnv>, deps: AppDeps, name: string, form: string, write: () => Promise<{ ok: true } | { ok: false; error: { kind: ErrorKind; message: string } }>, done: string, parameters: ParameterDraft[] = []): Promise<Response> {
  const written = await write();
  if (!written.ok) {
    if (written.error.kind === 'NotFoundError') throw apiError('NotFoundError', written.error.message);
    return definitionPage(c, deps, name, refusal(c, form, written.error.kind, written.error.message, parameters));
  }
  return c.redirect(done === 'deleted' ? `${STRATEGIES}?done=deleted` : `${strategyUrl(name)}?done=${done}`, 303);
}

export const strategyDefinitionPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'get', path: STRATEGIES, permission: 'READ', success: PAGE,
    summary: 'The strategy definitions, built-in and custom, with how many strategies use each',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  defineRoute({
    ...page, method: 'post', path: STRATEGIES, permission: 'UPDATE_DEFINITIONS', success: { status: 303, description: 'To the new strategy\'s page' },
    summary: 'Create a custom strategy definition (the new-strategy form of the list)',
    handle: async ({ c, deps, principal }) => {
      const form = c.get('form') ?? {};
      const parameters = parametersFromForm(form);
      const parsed = v.safeParse(CreateStrategyDefinitionSchema, { name: (form['name'] ?? '').trim(), ...bodyOf(form, parameters) });
      if (!parsed.success) return listPage(c, deps, refusal(c, 'create', 'ValidationError', formatIssues(parsed.issues).message, parameters));
      const { name, title, description } = parsed.output;
      const created = await createStrategyDefinition(deps.registry, { name, title, displayName: null, description, editable: true, deprecated: false, parameters: parsed.output.parameters }, principal);
      if (!created.ok) return listPage(c, deps, refusal(c, 'create', created.error.kind, created.error.message, parameters));
      return c.redirect(`${strategyUrl(created.value.name)}?done=created`, 303);
    },
  }),
  defineRoute({
    ...page, method: 'get', path: `${STRATEGIES}/:name`, permission: 'READ', params: StrategyDefinitionParamsSchema, success: PAGE,
    summary: 'A strategy definition, its parameters and the strategies of flags that use it',
    handle: ({ c, deps, params }) => definitionPage(c, deps, params.name),
  }),
  defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:name`, permission: 'UPDATE_DEFINITIONS', params: StrategyDefinitionParamsSchema, success: BACK,
    summary: 'Save a custom strategy definition\'s title, description and parameters',
    handle: async ({ c, deps, params, principal }) => {
      const parameters = parametersFromForm(c.get('form') ?? {});
      const parsed = v.safeParse(UpdateStrategyDefinitionSchema, bodyOf(c.get('form') ?? {}, parameters));
      if (!parsed.success) return definitionPage(c, deps, params.name, refusal(c, 'edit', 'ValidationError', formatIssues(parsed.issues).message, parameters));
      const { title, description } = parsed.output;
      const definition = { name: params.name, title, displayName: null, description, editable: true, deprecated: false, parameters: parsed.output.parameters };
      return change(c, deps, params.name, 'edit', () => updateStrategyDefinition(deps.registry, definition, principal), 'saved', parameters);
    },
  }),
  ...(['deprecate', 'reactivate'] as const).map((action) => defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:name/${action}`, permission: 'UPDATE_DEFINITIONS', params: StrategyDefinitionParamsSchema, success: BACK,
    summary: action === 'deprecate' ? 'Deprecate a strategy definition (flags may still use it)' : 'Reactivate a deprecated strategy definition',
    handle: ({ c, deps, params, principal }) =>
      change(c, deps, params.name, 'lifecycle', () => deprecateStrategyDefinition(deps.registry, params.name, action === 'deprecate', principal), `${action}d`),
  })),
  defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:name/delete`, permission: 'UPDATE_DEFINITIONS', params: StrategyDefinitionParamsSchema,
    success: { status: 303, description: 'To the list' },
    summary: 'Delete a custom strategy definition (flags keep strategies that name it)',
    handle: ({ c, deps, params, principal }) =>
      change(c, deps, params.name, 'lifecycle', () => deleteStrategyDefinition(deps.registry, params.name, principal), 'deleted'),
  }),
];
