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
import { directOrDraft, isDrafted } from '../change-drafts.js';
import type { ChangeBody } from '../../domain/change-request.js';
import type { ProjectState } from '../../domain/project-state.js';
import { flagDone, flagDrafted, refusedOnFlag } from './flag-page-render.js';

const STRATEGIES = '/projects/:projectId/features/:featureName/environments/:environment/strategies';
const BACK = { status: 303, description: 'Back to the flag page' };
const ACTION = buttonForm('strategy-action');

/**
 * Back to the environment's section of the flag page, saying the change was made, or that it went to the
 * person's change request (the environment takes their changes through requests: `change-drafts.ts`).
 */
const toEnvironment = (done: 'added' | 'saved' | 'deleted' | 'moved' | 'copied') =>
  (value: unknown, { params }: { params: { projectId: string; featureName: string; environment: string } }) =>
    (isDrafted(value) ? flagDrafted(params, value, idOf('env', params.environment)) : flagDone(params, done, idOf('env', params.environment)));

/** The changes of a request a strategy write stands for, in the path's environment. */
const inDraft = (p: { environment: string }, ...changes: ChangeBody[]) => () => ({ environment: p.environment, changes });

/** A strategy of the flag in the environment, as the project holds it now (a 404 when it is gone). */
function strategyNow(state: ProjectState, p: StrategyParams) {
  const found = flagInEnvironment(state, p.featureName, p.environment);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const strategy = found.value.strategies.find((s) => s.id === p.strategyId);
  if (!strategy) throw apiError('NotFoundError', `No strategy "${p.strategyId}" in ${p.environment}`);
  return { strategy, all: found.value.strategies };
}

/** The form of one strategy's buttons, as a refusal names it. */
const actionOf = (p: StrategyParams) => `strategy-action:${p.environment}:${p.strategyId}`;

export const flagStrategyPages = [
  definePage({
    method: 'post', path: STRATEGIES, permission: 'CREATE_FEATURE_STRATEGY', params: FeatureEnvironmentParamsSchema, form: StrategyForm, conditional: true, success: BACK,
    summary: 'Add a strategy to a flag in an environment',
    handle: (call) => directOrDraft(call, () => addStrategy(call.registry, inputOf(call.params, { strategy: call.form, ifMatch: call.ifMatch }), call.principal),
      inDraft(call.params, { feature: call.params.featureName, action: 'addStrategy', payload: call.form })),
    done: toEnvironment('added'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, `strategy:${call.params.environment}:new`),
  }),
  definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: StrategyForm, conditional: true, success: BACK,
    summary: 'Save a strategy (title, parameters, constraints, segments, variants, disabled)',
    handle: (call) => directOrDraft(call, () => updateStrategy(call.registry, inputOf(call.params, { strategy: call.form, ifMatch: call.ifMatch }), call.principal),
      inDraft(call.params, { feature: call.params.featureName, action: 'updateStrategy', payload: { ...call.form, id: call.params.strategyId } })),
    done: toEnvironment('saved'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, `strategy:${call.params.environment}:${call.params.strategyId}`),
  }),
  definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId/delete`, permission: 'DELETE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: ACTION, conditional: true, success: BACK,
    summary: 'Delete a strategy',
    handle: (call) => directOrDraft(call, () => deleteStrategy(call.registry, inputOf(call.params, { ifMatch: call.ifMatch }), call.principal),
      inDraft(call.params, { feature: call.params.featureName, action: 'deleteStrategy', payload: { id: call.params.strategyId } })),
    done: toEnvironment('deleted'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, actionOf(call.params)),
  }),
  ...(['disable', 'enable'] as const).map((action) => definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId/${action}`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: ACTION, conditional: true, success: BACK,
    summary: action === 'disable' ? 'Disable a strategy (kept, not evaluated)' : 'Enable a disabled strategy',
    handle: (call) => directOrDraft(call,
      () => patchStrategy(call.registry, inputOf(call.params, { operations: [{ op: 'replace' as const, path: '/disabled', value: action === 'disable' }], ifMatch: call.ifMatch }), call.principal),
      () => {
        const { strategy } = strategyNow(call.project().state, call.params);
        const { id, name, title, parameters, constraints, variants, segments } = strategy;
        const payload = { id, name, title, parameters, constraints, variants, segments, disabled: action === 'disable' };
        return inDraft(call.params, { feature: call.params.featureName, action: 'updateStrategy', payload: payload as Extract<ChangeBody, { action: 'updateStrategy' }>['payload'] })();
      }),
    done: toEnvironment('saved'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, actionOf(call.params)),
  })),
  definePage({
    method: 'post', path: `${STRATEGIES}/:strategyId/move`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, form: MoveForm, conditional: true, success: BACK,
    summary: 'Move a strategy one place up (`direction=up`) or down in its environment',
    handle: (call) => {
      const { params, form } = call;
      const order = [...strategyNow(call.project().state, params).all].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => s.id);
      const at = order.indexOf(params.strategyId);
      const to = form.direction === 'up' ? at - 1 : at + 1;
      if (to >= 0 && to < order.length) [order[at], order[to]] = [order[to]!, order[at]!];
      const sorted = order.map((id, sortOrder) => ({ id, sortOrder }));
      return directOrDraft(call, () => setStrategySortOrder(call.registry, inputOf(params, { order: sorted, ifMatch: call.ifMatch }), call.principal),
        inDraft(params, { feature: params.featureName, action: 'reorderStrategy', payload: sorted }));
    },
    done: toEnvironment('moved'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, actionOf(call.params)),
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/features/:featureName/environments/:environment/copy', permission: 'CREATE_FEATURE_STRATEGY',
    params: FeatureEnvironmentParamsSchema, form: CopyForm, conditional: true, success: BACK,
    summary: 'Copy every strategy of another environment (`fromEnvironment`) to this one',
    handle: (call) => directOrDraft(call, () => copyStrategies(call.registry, inputOf(call.params, call.form, { ifMatch: call.ifMatch }), call.principal), () => {
      // Each strategy of the source, as a new one here (a copy keeps every field but its id and place).
      const found = flagInEnvironment(call.project().state, call.params.featureName, call.form.fromEnvironment);
      const source = found.ok ? [...found.value.strategies].sort((a, b) => a.sortOrder - b.sortOrder) : [];
      return inDraft(call.params, ...source.map(({ name, title, parameters, constraints, variants, segments, disabled }): ChangeBody => ({
        feature: call.params.featureName, action: 'addStrategy', payload: { name, title, parameters, constraints, variants, segments, disabled } as Extract<ChangeBody, { action: 'addStrategy' }>['payload'],
      })))();
    }),
    done: toEnvironment('copied'),
    refused: (call, refusal) => refusedOnFlag(call, refusal, `copy:${call.params.environment}`),
  }),
];
