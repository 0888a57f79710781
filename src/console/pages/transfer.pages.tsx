/** @jsxImportSource hono/jsx */
/**
 * A project's export and import (`/projects/:projectId/transfer`), through the use cases of
 * `POST /api/admin/features-batch/export`, `/validate` and `/import`, with their permissions (`READ`, `READ`,
 * `UPDATE_DEFINITIONS`). The export is a download; the import form (`forms/transfer.form.ts`) is sent as a file or
 * pasted text, checked by a dry run first, and written only by its own button.
 */
import type { Context } from 'hono';
import type { ProjectActor } from '../../actors/actor-types.js';
import { isAllowed } from '../../auth/permissions.js';
import { exportFeatures } from '../../queries/export.query.js';
import { ExportPageQuerySchema } from '../../schemas/insight-pages.schema.js';
import { parseImportForDryRun } from '../../schemas/import-dry-run-parse.js';
import { ProjectParamsSchema } from '../../schemas/params.schema.js';
import { importFeatures, validateImport } from '../../use-cases/import.use-cases.js';
import { apiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { orderedEnvironments } from '../../http/answers/views.js';
import type { Refusal } from '../forms/form.js';
import { ImportCheckForm, ImportForm, type ImportDraft } from '../forms/transfer.form.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { TransferPage, type TransferPageProps } from '../views/transfer/transfer-page.js';

function transferAnswer(c: Context<ConsoleEnv>, deps: ConsoleDeps, actor: ProjectActor, extras: Pick<TransferPageProps, 'form' | 'done'> = {}): Response {
  const { meta } = actor.state;
  const environments = orderedEnvironments(deps.registry.service.state.environments, meta.environments).map((e) => e.name);
  return renderPage(c, (
    <TransferPage project={{ id: meta.id, name: meta.name }} environments={environments}
      mayImport={isAllowed(c.get('principal'), 'UPDATE_DEFINITIONS', undefined)} {...extras} />
  ));
}

/** The page again with a refused import form. */
const refusedImport = ({ c, deps, project }: { c: Context<ConsoleEnv>; deps: ConsoleDeps; project(): ProjectActor }, refusal: Refusal<ImportDraft>) =>
  transferAnswer(c, deps, project(), { form: { ...refusal.draft, refusal } });

export const transferPages = [
  definePage({
    method: 'get', path: '/projects/:projectId/transfer', permission: 'READ', params: ProjectParamsSchema, summary: 'A project\'s export and import',
    handle: ({ c, deps, project }) => {
      const search = new URL(c.req.url).searchParams;
      const count = (name: string) => Math.max(0, Number(search.get(name)) || 0);
      const done = search.get('done') === 'imported' ? { created: count('created'), updated: count('updated'), skipped: count('skipped') } : undefined;
      return transferAnswer(c, deps, project(), { done });
    },
  }),
  definePage({
    method: 'get', path: '/projects/:projectId/transfer/export', permission: 'READ', params: ProjectParamsSchema, query: ExportPageQuerySchema, errors: ['NotFoundError'],
    summary: 'Download the export of a project\'s flags in one environment (Unleash\'s format, as a JSON file)',
    success: { status: 200, description: 'The export, `Content-Disposition: attachment`' },
    handle: ({ c, deps, params, query }) => {
      const exported = exportFeatures(deps.registry, { environment: query.environment, project: params.projectId, downloadFile: true });
      if (!exported.ok) throw apiError(exported.error.kind, exported.error.message);
      const filename = `${params.projectId}-${query.environment}.json`.replace(/[^A-Za-z0-9._-]/g, '_');
      return c.body(JSON.stringify(exported.value, null, 2), 200, {
        'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"`,
      });
    },
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/transfer/validate', permission: 'READ', params: ProjectParamsSchema, form: ImportCheckForm, bodyLimit: 'import',
    summary: 'Dry run of an import into the project: its errors, warnings and missing permissions, nothing changed',
    success: { status: 200, description: 'The page with the dry run' },
    handle: async ({ c, deps, params, form, draft, principal, project }) => {
      // As the API's dry run: every problem of the file listed at once, none of it a refusal of the form.
      const checked = await validateImport(deps.registry, parseImportForDryRun({ project: params.projectId, environment: form.environment, data: form.data }), principal);
      if (!checked.ok) return checked;
      const sent = { environment: draft.environment, data: draft.data };
      const features = (form.data as { features?: unknown }).features;
      return transferAnswer(c, deps, project(), { form: { ...sent, dryRun: { ...checked.value, flags: Array.isArray(features) ? features.length : 0 } } });
    },
    refused: refusedImport,
  }),
  definePage({
    method: 'post', path: '/projects/:projectId/transfer/import', permission: 'UPDATE_DEFINITIONS', params: ProjectParamsSchema, form: ImportForm, bodyLimit: 'import',
    summary: 'Import into the project: all of it or nothing (the dry run\'s errors shown again when refused)',
    success: { status: 303, description: 'Back to the page, with what changed' },
    handle: ({ deps, form, principal }) => importFeatures(deps.registry, form, principal),
    done: ({ created, updated, skipped }, { params }) =>
      `/projects/${encodeURIComponent(params.projectId)}/transfer?done=imported&created=${created.length}&updated=${updated.length}&skipped=${skipped.length}`,
    refused: (call, refusal) => {
      // A refusal of the use case names every error in its details: shown as the dry run shows them.
      const errors = call.form !== undefined ? (refusal.error.details ?? []).map((d) => ({ message: d.message, affectedItems: [] })) : [];
      if (call.form === undefined || errors.length === 0) return refusedImport(call, refusal);
      return transferAnswer(call.c, call.deps, call.project(), { form: { ...refusal.draft, dryRun: { errors, warnings: [], permissions: [], flags: call.form.data.features.length } } });
    },
  }),
];
