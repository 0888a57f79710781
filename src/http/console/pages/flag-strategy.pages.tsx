/**
 * The strategy forms of a flag's page: add, edit (constraints included), delete, disable or enable, move up or
 * down, and copy from another environment. Each validates with the API's `StrategySchema` and calls the use
 * case the API's strategy route calls; a refusal shows the page again with the form as sent and the API's
 * message next to the field it names.
 */
import * as v from 'valibot';
import type { Context } from 'hono';
import type { StrategyInput } from '../../../domain/types.js';
import { flagInEnvironment } from '../../../queries/flags.query.js';
import { formatIssues } from '../../../schemas/issues.js';
import { FeatureEnvironmentParamsSchema, StrategyParamsSchema, type FeatureEnvironmentParams } from '../../../schemas/params.schema.js';
import { StrategySchema } from '../../../schemas/strategy.schema.js';
import { addStrategy, copyStrategies, deleteStrategy, patchStrategy, setStrategySortOrder, updateStrategy } from '../../../use-cases/strategies.use-cases.js';
import type { Result } from '../../../domain/result.js';
import { apiError } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { bodyOf, draftFromForm, fieldOfMessage } from '../strategy-form-fields.js';
import { idOf } from '../views/flag/form-parts.js';
import { backToFlag, formIfMatch, refusedForm } from './flag-page-render.js';

const STRATEGIES = '/projects/:projectId/features/:featureName/environments/:environment/strategies';
const BACK = { status: 303, description: 'Back to the flag page' };
const page = { tag: 'Console', authentication: 'session', page: true } as const;

/**
 * The strategy a form describes, validated by the API's schema, then written by `write`: a 303 back to the
 * environment, or the page again with the form as sent and the message next to its field.
 */
async function saveStrategy(
  c: Context<AppEnv>, deps: AppDeps, params: FeatureEnvironmentParams, form: string,
  write: (strategy: StrategyInput) => Promise<Result<unknown>>, done: 'added' | 'saved',
): Promise<Response> {
  const draft = draftFromForm(c.get('form') ?? {});
  const parsed = v.safeParse(StrategySchema, bodyOf(draft));
  if (!parsed.success) {
    const { message } = formatIssues(parsed.issues);
    return refusedForm(c, deps, params, { form, field: fieldOfMessage(message), error: { kind: 'ValidationError', message }, draft });
  }
  const written = await write(parsed.output);
  if (!written.ok) return refusedForm(c, deps, params, { form, field: fieldOfMessage(written.error.message), error: written.error, draft });
  return backToFlag(c, params, done, idOf('env', params.environment));
}

export const flagStrategyPages: RouteSpec[] = [
  defineRoute({
    ...page, method: 'post', path: STRATEGIES, permission: 'CREATE_FEATURE_STRATEGY', params: FeatureEnvironmentParamsSchema, success: BACK,
    summary: 'Add a strategy to a flag in an environment',
    handle: ({ c, deps, params, principal, registry }) =>
      saveStrategy(c, deps, params, `strategy:${params.environment}:new`, (strategy) => addStrategy(registry, { ...params, strategy, ifMatch: formIfMatch(c) }, principal), 'added'),
  }),
  defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:strategyId`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, success: BACK,
    summary: 'Save a strategy (title, parameters, constraints, segments, variants, disabled)',
    handle: ({ c, deps, params, principal, registry }) =>
      saveStrategy(c, deps, params, `strategy:${params.environment}:${params.strategyId}`, (strategy) => updateStrategy(registry, { ...params, strategy, ifMatch: formIfMatch(c) }, principal), 'saved'),
  }),
  defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:strategyId/delete`, permission: 'DELETE_FEATURE_STRATEGY', params: StrategyParamsSchema, success: BACK,
    summary: 'Delete a strategy',
    handle: async ({ c, deps, params, principal, registry }) => {
      const deleted = await deleteStrategy(registry, { ...params, ifMatch: formIfMatch(c) }, principal);
      if (!deleted.ok) return refusedForm(c, deps, params, { form: `strategy-action:${params.environment}:${params.strategyId}`, field: null, error: deleted.error });
      return backToFlag(c, params, 'deleted', idOf('env', params.environment));
    },
  }),
  ...(['disable', 'enable'] as const).map((action) => defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:strategyId/${action}`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, success: BACK,
    summary: action === 'disable' ? 'Disable a strategy (kept, not evaluated)' : 'Enable a disabled strategy',
    handle: async ({ c, deps, params, principal, registry }) => {
      const changed = await patchStrategy(registry, { ...params, operations: [{ op: 'replace', path: '/disabled', value: action === 'disable' }], ifMatch: formIfMatch(c) }, principal);
      if (!changed.ok) return refusedForm(c, deps, params, { form: `strategy-action:${params.environment}:${params.strategyId}`, field: null, error: changed.error });
      return backToFlag(c, params, 'saved', idOf('env', params.environment));
    },
  })),
  defineRoute({
    ...page, method: 'post', path: `${STRATEGIES}/:strategyId/move`, permission: 'UPDATE_FEATURE_STRATEGY', params: StrategyParamsSchema, success: BACK,
    summary: 'Move a strategy one place up (`direction=up`) or down in its environment',
    handle: async ({ c, deps, params, principal, registry }) => {
      const actor = c.get('actor');
      const found = actor ? flagInEnvironment(actor.state, params.featureName, params.environment) : undefined;
      if (!found?.ok) throw apiError('NotFoundError', found?.error.message ?? 'No such flag');
      const order = [...found.value.strategies].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => s.id);
      const at = order.indexOf(params.strategyId);
      if (at < 0) throw apiError('NotFoundError', `No strategy "${params.strategyId}" in ${params.environment}`);
      const to = c.get('form')?.['direction'] === 'up' ? at - 1 : at + 1;
      if (to >= 0 && to < order.length) [order[at], order[to]] = [order[to]!, order[at]!];
      const moved = await setStrategySortOrder(registry, { ...params, order: order.map((id, sortOrder) => ({ id, sortOrder })), ifMatch: formIfMatch(c) }, principal);
      if (!moved.ok) return refusedForm(c, deps, params, { form: `strategy-action:${params.environment}:${params.strategyId}`, field: null, error: moved.error });
      return backToFlag(c, params, 'moved', idOf('env', params.environment));
    },
  }),
  defineRoute({
    ...page, method: 'post', path: '/projects/:projectId/features/:featureName/environments/:environment/copy', permission: 'CREATE_FEATURE_STRATEGY',
    params: FeatureEnvironmentParamsSchema, success: BACK,
    summary: 'Copy every strategy of another environment (`fromEnvironment`) to this one',
    handle: async ({ c, deps, params, principal, registry }) => {
      const copied = await copyStrategies(registry, { ...params, fromEnvironment: c.get('form')?.['fromEnvironment'] ?? '', ifMatch: formIfMatch(c) }, principal);
      if (!copied.ok) return refusedForm(c, deps, params, { form: `copy:${params.environment}`, field: null, error: copied.error });
      return backToFlag(c, params, 'copied', idOf('env', params.environment));
    },
  }),
];
