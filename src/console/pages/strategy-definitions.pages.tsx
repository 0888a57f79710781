/** @jsxImportSource hono/jsx */
/**
 * The strategy definition pages: the list (`/admin/strategies`, `?q=` and `?page=`) with the new-definition form,
 * and one definition's page: a custom one edited, deprecated, reactivated or deleted; a built-in one read-only.
 * The forms are declared (`forms/definitions.forms.ts`); each post calls the use case the API's route calls, and
 * a refusal shows the page again with the API's messages next to the fields they name.
 */
import type { Context } from 'hono';
import { definitionUseCounts, strategiesUsingDefinition } from '../../queries/definition-usage.query.js';
import { strategyDefinitionByName, strategyDefinitions } from '../../queries/definitions.query.js';
import { StrategyDefinitionParamsSchema } from '../../schemas/definition.schema.js';
import {
  createStrategyDefinition, deleteStrategyDefinition, deprecateStrategyDefinition, updateStrategyDefinition,
} from '../../use-cases/definitions.use-cases.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { NewStrategyDefinitionForm, StrategyDefinitionForm, type StrategyDefinitionDraft } from '../forms/definitions.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { frameOf, renderPage } from '../render.js';
import { searchPage } from '../../queries/paging.js';
import { labelOf, STRATEGIES, StrategyList, strategyUrl } from '../views/definitions/strategy-list.js';
import { StrategyPage } from '../views/definitions/strategy-page.js';
import { done, noticeOf } from '../notices.js';

const BACK = { status: 303, description: 'Back to the strategy\'s page' };
const LIFECYCLE = buttonForm('lifecycle');

function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, refused?: Refusal<StrategyDefinitionDraft>): Response {
  const frame = frameOf(c);
  const counts = definitionUseCounts(deps.registry);
  const rows = strategyDefinitions(deps.registry).map((d) => ({ ...d, uses: counts.get(d.name) ?? 0 }));
  const list = searchPage(rows, (d) => [d.name, labelOf(d), d.description ?? ''], c.req.query('q'), c.req.query('page'));
  return renderPage(c, <StrategyList list={list} mayEdit={frame.permits.has('UPDATE_DEFINITIONS') === true} refused={refused} notice={noticeOf('strategies', c.req.query('done'))} />);
}

function definitionPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, name: string, refused?: Refusal<unknown>): Response {
  const found = strategyDefinitionByName(deps.registry, name);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const frame = frameOf(c);
  return renderPage(c, (
    <StrategyPage definition={found.value} uses={strategiesUsingDefinition(deps.registry, name)} mayEdit={frame.permits.has('UPDATE_DEFINITIONS') === true}
      refused={refused} notice={noticeOf('strategies', c.req.query('done'))} />
  ));
}

/** A refused form of a definition's page. */
const refusedOnPage = ({ c, deps, params }: { c: Context<ConsoleEnv>; deps: ConsoleDeps; params: { name: string } }, refusal: Refusal<unknown>) => definitionPage(c, deps, params.name, refusal);

export const strategyDefinitionPages = [
  definePage({
    method: 'get', path: STRATEGIES, permission: 'READ', summary: 'The strategy definitions, built-in and custom, with how many strategies use each',
    handle: ({ c, deps }) => listPage(c, deps),
  }),
  definePage({
    method: 'post', path: STRATEGIES, permission: 'UPDATE_DEFINITIONS', form: NewStrategyDefinitionForm,
    success: { status: 303, description: 'To the new strategy\'s page' }, summary: 'Create a custom strategy definition (the new-strategy form of the list)',
    handle: ({ registry, form, principal }) => createStrategyDefinition(registry, { ...form, displayName: null, editable: true, deprecated: false }, principal),
    done: (created) => done(strategyUrl(created.name), 'strategies', 'created'),
    refused: ({ c, deps }, refusal) => listPage(c, deps, refusal),
  }),
  definePage({
    method: 'get', path: `${STRATEGIES}/:name`, permission: 'READ', params: StrategyDefinitionParamsSchema,
    summary: 'A strategy definition, its parameters and the strategies of flags that use it',
    handle: ({ c, deps, params }) => definitionPage(c, deps, params.name),
  }),
  definePage({
    method: 'post', path: `${STRATEGIES}/:name`, permission: 'UPDATE_DEFINITIONS', params: StrategyDefinitionParamsSchema, form: StrategyDefinitionForm, success: BACK,
    summary: 'Save a custom strategy definition\'s title, description and parameters',
    handle: ({ registry, params, form, principal }) =>
      updateStrategyDefinition(registry, { ...form, name: params.name, displayName: null, editable: true, deprecated: false }, principal),
    done: (_, { params }) => done(strategyUrl(params.name), 'strategies', 'saved'),
    refused: refusedOnPage,
  }),
  ...(['deprecate', 'reactivate'] as const).map((action) => definePage({
    method: 'post', path: `${STRATEGIES}/:name/${action}`, permission: 'UPDATE_DEFINITIONS', params: StrategyDefinitionParamsSchema, form: LIFECYCLE, success: BACK,
    summary: action === 'deprecate' ? 'Deprecate a strategy definition (flags may still use it)' : 'Reactivate a deprecated strategy definition',
    handle: ({ registry, params, principal }) => deprecateStrategyDefinition(registry, params.name, action === 'deprecate', principal),
    done: (_, { params }) => done(strategyUrl(params.name), 'strategies', `${action}d`),
    refused: refusedOnPage,
  })),
  definePage({
    method: 'post', path: `${STRATEGIES}/:name/delete`, permission: 'UPDATE_DEFINITIONS', params: StrategyDefinitionParamsSchema, form: LIFECYCLE,
    success: { status: 303, description: 'To the list' }, summary: 'Delete a custom strategy definition (flags keep strategies that name it)',
    handle: ({ registry, params, principal }) => deleteStrategyDefinition(registry, params.name, principal),
    done: () => done(STRATEGIES, 'strategies', 'deleted'),
    refused: refusedOnPage,
  }),
];
