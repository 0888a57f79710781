/**
 * The strategy forms of a flag's page: add, edit (constraints included), delete, disable or enable, move up or
 * down, and copy from another environment. The strategy form is declared once (`forms/strategy.form.ts`, the
 * API's `StrategySchema`); each post calls the use case the API's strategy route calls, and a refusal shows the
 * page again with the form as sent and the API's messages next to their fields.
 */
import type { StrategyParams } from '../../schemas/params.schema.js';
import { FeatureEnvironmentParamsSchema, StrategyParamsSchema } from '../../schemas/params.schema.js';
import { flagInEnvironment } from '../../queries/flags.query.js';
import { addStrategy, copyStrategies, deleteStrategy, patchStrategy, setStrategySortOrder, updateStrategy } from '../../use-cases/strategies.use-cases.js';
import { apiError } from '../../http/errors.js';
import { inputOf } from '../../http/route.js';
import { buttonForm, CopyForm, MoveForm } from '../forms/flag.forms.js';
import { StrategyForm } from '../forms/strategy.form.js';
import { definePage } from '../page.js';
import { idOf } from '../views/form-parts.js';
import { flagDone, refusedOnFlag } from './flag-page-render.js';

const STRATEGIES = '/projects/:projectId/features/:featureName/environments/:environment/strategies';
const BACK = { status: 303, description: 'Back to the flag page' };
const ACTION = buttonForm('strategy-action');

/** Back to the environment's section of the flag page. */
const toEnvironment = (done: 'added' | 'saved' | 'deleted' | 'moved' | 'copied') =>
  (_: unknown, { params }: { params: { projectId: string; featureName: string; environment: string } }) => flagDone(params, done, idOf('env', params.environment));

/** The form of one strategy's buttons, as a refusal names it. */
const actionOf = (p: StrategyParams) => `strategy-action:${p.environment}:${p.strategyId}`;

export const flagStrategyPages = [
  definePage({
    method: 'post', path: STRATEGIES, permission: 'CREATE_FEATURE_STRATEGY', params: FeatureEnvironmentParamsSchema, form: StrategyForm, conditional: true, success: BACK,
    summary: 'Add a strategy to a flag in an environment',
    handle: ({ registry, params, form, ifMatch, principal }) => addStrategy(registry, inputOf(params, { strategy: form, ifMatch }), principal),
    done: toEnvironment('added'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, `strategy:${call.params.environment}:new`),
  }),
  definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: StrategyForm, conditional: true, success: BACK,
    summary: 'Save a strategy (title, parameters, constraints, segments, variants, disabled)',
    handle: ({ registry, params, form, ifMatch, principal }) => updateStrategy(registry, inputOf(params, { strategy: form, ifMatch }), principal),
    done: toEnvironment('saved'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, `strategy:${call.params.environment}:${call.params.strategyId}`),
  }),
  definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId/delete`, permission: 'DELETE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: ACTION, conditional: true, success: BACK,
    summary: 'Delete a strategy',
    handle: ({ registry, params, ifMatch, principal }) => deleteStrategy(registry, inputOf(params, { ifMatch }), principal),
    done: toEnvironment('deleted'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, actionOf(call.params)),
  }),
  ...(['disable', 'enable'] as const).map((action) => definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId/${action}`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: ACTION, conditional: true, success: BACK,
    summary: action === 'disable' ? 'Disable a strategy (kept, not evaluated)' : 'Enable a disabled strategy',
    handle: ({ registry, params, ifMatch, principal }) =>
      patchStrategy(registry, inputOf(params, { operations: [{ op: 'replace' as const, path: '/disabled', value: action === 'disable' }], ifMatch }), principal),
    done: toEnvironment('saved'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, actionOf(call.params)),
  })),
  definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId/move`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: MoveForm, conditional: true, success: BACK,
    summary: 'Move a strategy one place up (`direction=up`) or down in its environment',
    handle: ({ registry, params, form, ifMatch, principal, project }) => {
      const found = flagInEnvironment(project().state, params.featureName, params.environment);
      if (!found.ok) throw apiError('NotFoundError', found.error.message);
      const order = [...found.value.strategies].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => s.id);
      const at = order.indexOf(params.strategyId);
      if (at < 0) throw apiError('NotFoundError', `No strategy "${params.strategyId}" in ${params.environment}`);
      const to = form.direction === 'up' ? at - 1 : at + 1;
      if (to >= 0 && to < order.length) [order[at], order[to]] = [order[to]!, order[at]!];
      return setStrategySortOrder(registry, inputOf(params, { order: order.map((id, sortOrder) => ({ id, sortOrder })), ifMatch }), principal);
    },
    done: toEnvironment('moved'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, actionOf(call.params)),
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/features/:featureName/environments/:environment/copy', permission: 'CREATE_FEATURE_STRATEGY',
    params: FeatureEnvironmentParamsSchema, form: CopyForm, conditional: true, success: BACK,
    summary: 'Copy every strategy of another environment (`fromEnvironment`) to this one',
    handle: ({ registry, params, form, ifMatch, principal }) => copyStrategies(registry, inputOf(params, form, { ifMatch }), principal),
    done: toEnvironment('copied'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, `copy:${call.params.environment}`),
  }),
];
