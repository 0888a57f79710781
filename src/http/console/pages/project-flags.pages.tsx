/** @jsxImportSource hono/jsx */
/**
 * A project's page (`/projects/:projectId`): the flag table with its state in the URL, the new-flag form
 * (`POST /projects/:projectId/features`), the bulk bar (`POST /projects/:projectId/bulk`) and the live updates
 * (`GET /projects/:projectId/events`, `table-events.ts`). The switches'
 * routes are in `flag-switch.pages.tsx`.
 */
import * as v from 'valibot';
import type { Result } from '../../../domain/result.js';
import { CreateFeatureSchema } from '../../../schemas/feature.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { ProjectParamsSchema } from '../../../schemas/params.schema.js';
import { archiveFlags, markFlagsStale, toggleFlags } from '../../../use-cases/bulk-flags.use-cases.js';
import { createFlag } from '../../../use-cases/flags.use-cases.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type RouteSpec } from '../../route.js';
import { backTo, bulkPermissions, tablePage } from '../flag-table-page.js';
import { LIVE_REFUSALS } from '../table-events.js';
import { BULK_ACTIONS, type BulkAction } from '../views/flags/bulk-bar.js';
import { flagUrl } from '../views/flags/flag-urls.js';
import type { NewFlagRefusal } from '../views/flags/new-flag-form.js';

const PAGE = { status: 200, description: 'An HTML page' };

/** The new-flag field a message names first, or null. */
function fieldOf(message: string): NewFlagRefusal['error']['field'] {
  const found = /\b(name|type|description)\b/.exec(message);
  return found ? (found[1] as 'name' | 'type' | 'description') : null;
}

/** What a done bulk action says at the top of the table. */
function doneText(action: BulkAction, count: number, environment: string): string {
  const flags = `${count} ${count === 1 ? 'flag' : 'flags'}`;
  if (action === 'on') return `Switched ${flags} on in ${environment}.`;
  if (action === 'off') return `Switched ${flags} off in ${environment}.`;
  return action === 'stale' ? `Marked ${flags} stale.` : `Archived ${flags}.`;
}

export const projectFlagsPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/projects/:projectId', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'A project\'s page: its flag table (search, filters, sort and page in the query string)', params: ProjectParamsSchema, success: PAGE,
    handle: ({ c, deps, project }) => {
      const search = new URL(c.req.url).searchParams;
      const done = search.get('done') as BulkAction | null;
      const count = Number(search.get('count') ?? '0');
      const notice = done && BULK_ACTIONS.includes(done) ? { kind: 'done' as const, message: doneText(done, count, search.get('environment') ?? '') } : undefined;
      return tablePage(c, deps, project(), { notice });
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:projectId/events', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'Live updates of a project\'s flag table and flag pages: server-sent `changed:<flag>` events from committed changes',
    params: ProjectParamsSchema, success: { status: 200, description: '`text/event-stream`' }, errors: ['TooManyRequests'],
    handle: ({ c, deps, params, principal }) => {
      const stream = deps.console.tableEvents.stream(params.projectId, { session: c.get('session')?.key, user: principal.kind === 'user' ? String(principal.user.id) : undefined });
      if (typeof stream === 'string') throw apiError('TooManyRequests', LIVE_REFUSALS[stream]);
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } });
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:projectId/features', tag: 'Console', permission: 'CREATE_FEATURE', authentication: 'session', page: true,
    summary: 'Create a flag (the new-flag form of a project\'s page)', params: ProjectParamsSchema,
    success: { status: 303, description: 'To the new flag\'s page' },
    handle: async ({ c, deps, params, principal, project }) => {
      const form = c.get('form') ?? {};
      const values = { name: (form['name'] ?? '').trim(), type: form['type'] ?? 'release', description: form['description'] ?? '' };
      const parsed = v.safeParse(CreateFeatureSchema, values);
      const refuse = (status: number, message: string) =>
        tablePage(c, deps, project(), { status, search: new URLSearchParams(), newFlag: { values, error: { field: fieldOf(message), message } } });
      if (!parsed.success) return refuse(400, formatIssues(parsed.issues).message);
      const created = await createFlag(deps.registry, { projectId: params.projectId, ...parsed.output }, principal);
      if (!created.ok) return refuse(STATUS[created.error.kind], created.error.message);
      return c.redirect(flagUrl(params.projectId, created.value.name), 303);
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:projectId/bulk', tag: 'Console', permission: 'UPDATE_FEATURE', authentication: 'session', page: true,
    summary: 'Switch, mark stale or archive the selected flags (the bulk bar of a project\'s page)', params: ProjectParamsSchema,
    success: { status: 303, description: 'Back to the table' },
    handle: async ({ c, deps, params, principal, project }) => {
      const actor = project();
      const body = await c.req.parseBody({ all: true });
      const listed = body['features'];
      const features = (Array.isArray(listed) ? listed : [listed]).filter((f): f is string => typeof f === 'string' && f !== '');
      const form = c.get('form') ?? {};
      const back = backTo(params.projectId, form['back']);
      const action = form['action'] as BulkAction;
      const environment = form['environment'] ?? '';
      const search = new URL(back, 'http://console').searchParams;
      if (!BULK_ACTIONS.includes(action)) throw apiError('ValidationError', `"action" must be one of ${BULK_ACTIONS.join(', ')}`);
      if (!bulkPermissions(c, actor)[action]) throw apiError('NoAccessError', 'You may not do this to flags in this project');
      if (features.length === 0) return tablePage(c, deps, actor, { status: 400, search, notice: { kind: 'error', message: 'Select at least one flag first.' } });
      const ref = { projectId: params.projectId, features };
      let done: Result<null>;
      if (action === 'stale') done = await markFlagsStale(deps.registry, { ...ref, stale: true }, principal);
      else if (action === 'archive') done = await archiveFlags(deps.registry, ref, principal);
      else done = await toggleFlags(deps.registry, { ...ref, environment, enabled: action === 'on' }, principal);
      if (!done.ok) return tablePage(c, deps, actor, { status: STATUS[done.error.kind], search, notice: { kind: 'error', message: done.error.message } });
      search.set('done', action);
      search.set('count', String(features.length));
      if (action === 'on' || action === 'off') search.set('environment', environment);
      return c.redirect(`${new URL(back, 'http://console').pathname}?${search}`, 303);
    },
  }),
];
