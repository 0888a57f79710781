/** @jsxImportSource hono/jsx */
/**
 * A row's switch (`POST /projects/:p/rows/:f/environments/:env/toggle`) and the row itself as a fragment
 * (`GET /projects/:p/rows/:f`). Sent by htmx, the answer is the row as the server now holds it (a refusal, or the
 * offer to add a strategy first, under it); sent without script, a redirect back to the table (or the table
 * again, with the note). The switch itself is `flag-switch.ts`, shared with the flag page.
 */
import type { Context } from 'hono';
import type { ProjectActor } from '../../actors/actor-types.js';
import { rowMark } from '../../queries/flag-table/flag-table-row.js';
import { FeatureEnvironmentParamsSchema, FeatureParamsSchema } from '../../schemas/params.schema.js';
import { apiError, STATUS } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { sendSwitch } from '../flag-switch.js';
import { backTo, rowPermissions, tablePage } from '../flag-table-page.js';
import { SwitchForm } from '../forms/flag-table.forms.js';
import { definePage } from '../page.js';
import { renderFragment } from '../render.js';
import { FlagRowBody, type RowNote } from '../views/flags/flag-row.js';

const FRAGMENT = { status: 200, description: 'An HTML fragment: one row of the flag table' };

/** One row as an htmx fragment (always 200, so htmx swaps it in; a refusal is the note it carries). */
function rowFragment(c: Context<ConsoleEnv>, deps: ConsoleDeps, actor: ProjectActor, flag: string, back: string, note?: RowNote): Response {
  const now = Date.now();
  const row = deps.flagTable.row(actor.state, flag, now);
  if (!row.ok) throw apiError(row.error.kind, row.error.message);
  const fragment = <FlagRowBody projectId={actor.state.meta.id} row={row.value} may={rowPermissions(c, actor)} back={back} now={now} note={note} />;
  c.header('Cache-Control', 'no-store');
  return renderFragment(c, fragment);
}

/** The words of a row's refusal: the API's, with what to do about a change made meanwhile. */
function refusalText({ kind, message }: { kind: string; message: string }): string {
  return kind === 'PreconditionFailed' ? `${message}: someone changed this flag meanwhile; the row now shows its current state. Try again.` : message;
}

/** The path and query of the page htmx says it is on (`HX-Current-URL`), or undefined. */
function currentPage(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return undefined;
  }
}

export const flagSwitchPages = [
  definePage({
    method: 'get', path: '/projects/:projectId/rows/:featureName', permission: 'READ', params: FeatureParamsSchema, success: FRAGMENT,
    summary: 'One row of the flag table (an htmx fragment); 204 when `have` is what the row shows already (its version and stage)',
    handle: ({ c, deps, params, project }) => {
      // A live update of a change this page already shows (its own switch) would only swap the row for itself.
      const have = c.req.query('have');
      const flag = project().state.flags.get(params.featureName);
      if (have !== undefined && flag !== undefined && have === rowMark(flag)) return c.body(null, 204);
      return rowFragment(c, deps, project(), params.featureName, backTo(params.projectId, currentPage(c.req.header('hx-current-url'))));
    },
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/rows/:featureName/environments/:environment/toggle', permission: 'UPDATE_FEATURE_ENVIRONMENT',
    summary: 'Switch a flag on or off in an environment (a switch of the flag table)', params: FeatureEnvironmentParamsSchema, form: SwitchForm, conditional: true,
    success: { status: 200, description: 'The row again (htmx), or a redirect back to the table' },
    handle: async (call) => {
      const { c, deps, params, form } = call;
      const actor = call.project();
      const back = backTo(params.projectId, form.back);
      const outcome = await sendSwitch(call);
      const note: RowNote | undefined = outcome.kind === 'offer' ? { kind: 'offer', ...outcome.offer }
        : outcome.kind === 'refused' ? { kind: 'refused', environment: params.environment, message: refusalText(outcome.error) }
          : outcome.kind === 'drafted' ? { kind: 'drafted', environment: params.environment, requestId: outcome.request.id } : undefined;
      if (c.req.header('hx-request') === 'true') return rowFragment(c, deps, actor, params.featureName, back, note);
      if (note === undefined) return c.redirect(back, 303);
      const search = new URL(back, 'http://console').searchParams;
      return tablePage(c, deps, actor, { search, notes: new Map([[params.featureName, note]]), status: outcome.kind === 'refused' ? STATUS[outcome.error.kind] : 200 });
    },
  }),
];
