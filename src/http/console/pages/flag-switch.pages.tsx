/** @jsxImportSource hono/jsx */
/**
 * A row's switch (`POST /projects/:p/rows/:f/environments/:env/toggle`) and the row itself as a fragment
 * (`GET /projects/:p/rows/:f`). Sent by htmx, the answer is the row as the server now holds it (a refusal as
 * the API's message under it); sent without script, a redirect back to the table (or the table again, with the
 * message). Switching on without an enabled strategy first offers to add one (the project's default strategy
 * for the environment, or a 100% rollout when it has none), as Unleash's console does.
 */
import type { Context } from 'hono';
import type { ProjectActor } from '../../../actors/actor-types.js';
import { noAccessMessage, type Principal } from '../../../auth/permissions.js';
import { fail } from '../../../domain/errors.js';
import { failed, type Result } from '../../../domain/result.js';
import { FeatureEnvironmentParamsSchema, FeatureParamsSchema } from '../../../schemas/params.schema.js';
import { rowMark } from '../../../queries/flag-table-row.js';
import { addStrategy } from '../../../use-cases/strategies.use-cases.js';
import { disableFlag, enableFlag } from '../../../use-cases/toggles.use-cases.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { backTo, mayIn, rowPermissions, tablePage } from '../flag-table-page.js';
import { frameOf } from '../render.js';
import { FlagRowBody, type RowNote } from '../views/flags/flag-row.js';

const FRAGMENT = { status: 200, description: 'An HTML fragment: one row of the flag table' };

/** One row as an htmx fragment (always 200, so htmx swaps it in; a refusal is the note it carries). */
function rowFragment(c: Context<AppEnv>, deps: AppDeps, actor: ProjectActor, flag: string, back: string, note?: RowNote): Response {
  const now = Date.now();
  const row = deps.flagTable.row(actor.state, flag, now);
  if (!row.ok) throw apiError(row.error.kind, row.error.message);
  const fragment = <FlagRowBody projectId={actor.state.meta.id} row={row.value} may={rowPermissions(c, actor)} csrf={frameOf(c, deps).csrf} back={back} now={now} note={note} />;
  c.header('Cache-Control', 'no-store');
  return c.html(String(fragment), 200);
}

/** The path and query of the page htmx says it is on (`HX-Current-URL`), or undefined. */
function pageOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return undefined;
  }
}

/** The message a refusal shows: the API's, with what to do about a change made meanwhile. */
function refusalText(kind: string, message: string): string {
  return kind === 'PreconditionFailed' ? `${message}: someone changed this flag meanwhile; the row now shows its current state. Try again.` : message;
}

interface SwitchInput {
  projectId: string;
  featureName: string;
  environment: string;
  enabled: boolean;
  ifMatch: number | undefined;
  /** `default`: add a strategy first when it has no enabled one; `disabled`: enable its disabled strategies. */
  with: string | undefined;
}

/** Switches as asked, adding the 100% rollout first when the offer was taken and the project has no default strategy. */
async function sendSwitch(deps: AppDeps, actor: ProjectActor, input: SwitchInput, principal: Principal, mayAddStrategy: boolean): Promise<Result<null>> {
  const ref = { projectId: input.projectId, featureName: input.featureName, environment: input.environment, ifMatch: input.ifMatch };
  if (!input.enabled) return disableFlag(deps.registry, ref, principal);
  if (input.with === 'disabled') return enableFlag(deps.registry, { ...ref, activateDisabled: true }, principal);
  if (input.with === 'default' && !Object.hasOwn(actor.state.meta.defaultStrategies, input.environment)) {
    if (!mayAddStrategy) return failed(fail('NoAccessError', noAccessMessage('CREATE_FEATURE_STRATEGY', input.environment)));
    const stickiness = actor.state.meta.defaultStickiness ?? 'default';
    const added = await addStrategy(deps.registry, {
      ...ref, strategy: { name: 'flexibleRollout', parameters: { rollout: '100', stickiness, groupId: input.featureName }, constraints: [] },
    }, principal);
    if (!added.ok) return added;
    return enableFlag(deps.registry, { ...ref, ifMatch: undefined }, principal);
  }
  return enableFlag(deps.registry, ref, principal);
}

/** The note a switch to `enabled` needs before it is sent, if any: the offer when nothing would serve the flag. */
function offerFor(actor: ProjectActor, flag: string, environment: string): RowNote | undefined {
  const entry = actor.state.flags.get(flag)?.environments[environment];
  if (!entry || entry.strategies.some((s) => !s.disabled)) return undefined;
  const fallback = actor.state.meta.defaultStrategies[environment];
  return {
    kind: 'offer', environment, disabledStrategies: entry.strategies.length,
    defaultStrategy: fallback && Object.hasOwn(actor.state.meta.defaultStrategies, environment) ? fallback.title || fallback.name : null,
  };
}

export const flagSwitchPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/projects/:projectId/rows/:featureName', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'One row of the flag table (an htmx fragment); 204 when `have` is what the row shows already (its version and stage)', params: FeatureParamsSchema, success: FRAGMENT,
    handle: ({ c, deps, params, project }) => {
      // A live update of a change this page already shows (its own switch) would only swap the row for itself.
      const have = c.req.query('have');
      const flag = project().state.flags.get(params.featureName);
      if (have !== undefined && flag !== undefined && have === rowMark(flag)) return c.body(null, 204);
      return rowFragment(c, deps, project(), params.featureName, backTo(params.projectId, pageOf(c.req.header('hx-current-url'))));
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:projectId/rows/:featureName/environments/:environment/toggle', tag: 'Console',
    permission: 'UPDATE_FEATURE_ENVIRONMENT', authentication: 'session', page: true,
    summary: 'Switch a flag on or off in an environment (a switch of the flag table)', params: FeatureEnvironmentParamsSchema,
    success: { status: 200, description: 'The row again (htmx), or a redirect back to the table' },
    handle: async ({ c, deps, params, principal, project }) => {
      const actor = project();
      const form = c.get('form') ?? {};
      const back = backTo(params.projectId, form['back']);
      const htmx = c.req.header('hx-request') === 'true';
      const version = /^\d{1,15}$/.test(form['version'] ?? '') ? Number(form['version']) : undefined;
      const input: SwitchInput = { ...params, enabled: form['enabled'] === 'on', ifMatch: version, with: form['with'] };
      const offer = input.enabled && input.with === undefined ? offerFor(actor, params.featureName, params.environment) : undefined;
      let note = offer;
      let status = 200;
      if (offer === undefined) {
        const sent = await sendSwitch(deps, actor, input, principal, mayIn(c, actor, 'CREATE_FEATURE_STRATEGY'));
        if (!sent.ok) {
          note = { kind: 'refused', environment: params.environment, message: refusalText(sent.error.kind, sent.error.message) };
          status = STATUS[sent.error.kind];
        }
      }
      if (htmx) return rowFragment(c, deps, actor, params.featureName, back, note);
      if (note === undefined) return c.redirect(back, 303);
      const search = new URL(back, 'http://console').searchParams;
      return tablePage(c, deps, actor, { search, notes: new Map([[params.featureName, note]]), status });
    },
  }),
];
