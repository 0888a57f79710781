/** @jsxImportSource hono/jsx */
/**
 * A project's page (`/projects/:projectId`): the flag table with its state in the URL, the new-flag form
 * (`POST /projects/:projectId/features`), the bulk bar (`POST /projects/:projectId/bulk`) and the live updates
 * (`GET /projects/:projectId/events`, `table-events.ts`). The switches' routes are in `flag-switch.pages.tsx`.
 */
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { archiveFlags, markFlagsStale, toggleFlags } from '../../use-cases/bulk-flags.use-cases.js';
import { createFlag } from '../../use-cases/flags.use-cases.js';
import { apiError } from '../../http/errors.js';
import { inputOf } from '../../http/route.js';
import { backTo, bulkPermissions, tablePage } from '../flag-table-page.js';
import { BulkForm, NewFlagForm } from '../forms/flag-table.forms.js';
import { definePage } from '../page.js';
import { LIVE_REFUSALS } from '../live/table-events.js';
import { flagUrl } from '../views/flags/flag-urls.js';
import { bulkNotice } from '../notices.js';
import { directOrDraft, draftedNamed, firstProtected, isDrafted } from '../change-drafts.js';
import { draftedUrl } from '../views/change-requests/change-request-urls.js';

/** The table's address `back` names, its state kept. */
const searchOf = (back: string) => new URL(back, 'http://console').searchParams;

export const projectFlagsPages = [
  definePage({
    method: 'get', path: '/projects/:projectId', permission: 'READ', params: ProjectParamsSchema,
    summary: 'A project\'s page: its flag table (search, filters, sort and page in the query string)',
    handle: ({ c, deps, project }) => {
      const search = new URL(c.req.url).searchParams;
      const done = bulkNotice(search.get('done'), Number(search.get('count') ?? '0'), search.get('environment') ?? '');
      const drafted = draftedNamed(project().state, c.get('principal'), search.get('done') ?? undefined, search.get('request') ?? undefined);
      return tablePage(c, deps, project(), { notice: done ? { kind: 'done', message: done } : undefined, drafted });
    },
  }),
  definePage({
    method: 'get', path: '/projects/:projectId/events', permission: 'READ', params: ProjectParamsSchema, errors: ['TooManyRequests'],
    summary: 'Live updates of a project\'s flag table and flag pages: server-sent `changed:<flag>` events from committed changes',
    success: { status: 200, description: '`text/event-stream`' },
    handle: ({ c, deps, params, principal }) => {
      const stream = deps.liveTables.stream(params.projectId, { session: c.get('session')?.key, user: principal.kind === 'user' ? String(principal.user.id) : undefined });
      if (typeof stream === 'string') throw apiError('TooManyRequests', LIVE_REFUSALS[stream]);
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } });
    },
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/features', permission: 'CREATE_FEATURE', params: ProjectParamsSchema, form: NewFlagForm,
    summary: 'Create a flag (the new-flag form of a project\'s page)', success: { status: 303, description: 'To the new flag\'s page' },
    handle: ({ registry, params, form, principal }) => createFlag(registry, inputOf(params, form), principal),
    done: (flag, { params }) => flagUrl(params.projectId, flag.name),
    refused: ({ c, deps, project }, refusal) => tablePage(c, deps, project(), { search: new URLSearchParams(), newFlag: refusal }),
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/bulk', permission: 'UPDATE_FEATURE', params: ProjectParamsSchema, form: BulkForm,
    summary: 'Switch, mark stale or archive the selected flags (the bulk bar of a project\'s page)', success: { status: 303, description: 'Back to the table' },
    handle: async (call) => {
      const { c, registry, params, form, principal, project } = call;
      if (!bulkPermissions(c, project())[form.action]) throw apiError('NoAccessError', 'You may not do this to flags in this project');
      if (form.features.length === 0) return { ok: false, error: { kind: 'ValidationError', message: 'Select at least one flag first.' } };
      const ref = { projectId: params.projectId, features: form.features };
      if (form.action === 'stale') return markFlagsStale(registry, { ...ref, stale: true }, principal);
      // On a protected environment, the same changes go to the person's change request (`change-drafts.ts`).
      if (form.action === 'archive') {
        return directOrDraft(call, () => archiveFlags(registry, ref, principal),
          () => ({ environment: firstProtected(project().state), changes: form.features.map((feature) => ({ feature, action: 'archiveFeature' as const })) }));
      }
      const enabled = form.action === 'on';
      return directOrDraft(call, () => toggleFlags(registry, { ...ref, environment: form.environment, enabled }, principal),
        () => ({ environment: form.environment, changes: form.features.map((feature) => ({ feature, action: 'updateEnabled' as const, payload: { enabled } })) }));
    },
    done: (value, { params, form }) => {
      if (isDrafted(value)) return draftedUrl(backTo(params.projectId, form.back), value.drafted.id);
      const back = new URL(backTo(params.projectId, form.back), 'http://console');
      back.searchParams.set('done', form.action);
      back.searchParams.set('count', String(form.features.length));
      if (form.action === 'on' || form.action === 'off') back.searchParams.set('environment', form.environment);
      return `${back.pathname}${back.search}`;
    },
    refused: ({ c, deps, params, project }, refusal) =>
      tablePage(c, deps, project(), { search: searchOf(backTo(params.projectId, refusal.draft.back)), notice: { kind: 'error', message: refusal.error.message } }),
  }),
];
