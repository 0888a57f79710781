/** @jsxImportSource hono/jsx */
/**
 * A project's export and import (`/projects/:projectId/transfer`), through the use cases of
 * `POST /api/admin/features-batch/export`, `/validate` and `/import`, with their permissions (`READ`, `READ`,
 * `UPDATE_DEFINITIONS`). The export is a download; the import form is sent as a file or pasted text, checked by
 * a dry run first, and written only by its own button.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ProjectActor } from '../../../actors/actor-types.js';
import { isAllowed } from '../../../auth/permissions.js';
import { exportFeatures } from '../../../queries/export.query.js';
import { ExportPageQuerySchema } from '../../../schemas/insight-pages.schema.js';
import { ImportSchema } from '../../../schemas/import.schema.js';
import { parseImportForDryRun } from '../../../schemas/import-dry-run-parse.js';
import { formatIssues } from '../../../schemas/issues.js';
import { ProjectParamsSchema } from '../../../schemas/params.schema.js';
import { importFeatures, validateImport } from '../../../use-cases/import.use-cases.js';
import { apiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { orderedEnvironments } from '../../views.js';
import { frameOf, renderPage } from '../render.js';
import { TransferPage, type ImportState, type TransferPageProps } from '../views/transfer/transfer-page.js';

const PAGE = { status: 200, description: 'An HTML page' };

function transferAnswer(c: Context<AppEnv>, deps: AppDeps, actor: ProjectActor, extras: Pick<TransferPageProps, 'form' | 'done'> = {}, status = 200): Response {
  const { meta } = actor.state;
  const environments = orderedEnvironments(deps.registry.service.state.environments, meta.environments).map((e) => e.name);
  return renderPage(c, (
    <TransferPage frame={frameOf(c, deps)} project={{ id: meta.id, name: meta.name }} environments={environments}
      mayImport={isAllowed(c.get('principal'), 'UPDATE_DEFINITIONS', undefined)} {...extras} />
  ), status);
}

/** The import form as sent: the environment and the export's text (a chosen file wins over the pasted text). */
async function sentImport(c: Context<AppEnv>): Promise<{ environment: string; text: string }> {
  const form = c.get('form') ?? {};
  const file = (await c.req.parseBody())['file'];
  const fromFile = typeof file === 'object' && file !== null && file.size > 0 ? await file.text() : '';
  return { environment: form['environment'] ?? '', text: fromFile || (form['data'] ?? '') };
}

/** The import body the API would have been sent, or the form refused with a message next to its field. */
/** The sent text as a JSON object, or the form refused with the reason next to its field. */
function jsonOf(sent: { environment: string; text: string }): { value: Record<string, unknown> } | { refused: ImportState } {
  const refuse = (message: string) => ({ refused: { ...sent, error: { field: 'data' as const, message } } });
  if (sent.text.trim() === '') return refuse('Choose an export file or paste its JSON.');
  let data: unknown;
  try {
    data = JSON.parse(sent.text);
  } catch (error) {
    return refuse(`This is not JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return refuse('An export is a JSON object with "features", "featureStrategies" and the other parts of Unleash\'s export.');
  return { value: data as Record<string, unknown> };
}

function importBody(projectId: string, sent: { environment: string; text: string }): { body: v.InferOutput<typeof ImportSchema> } | { refused: ImportState } {
  const refuse = (field: 'data' | 'environment' | null, message: string) => ({ refused: { ...sent, error: { field, message } } });
  const json = jsonOf(sent);
  if ('refused' in json) return json;
  const data = json.value;
  const parsed = v.safeParse(ImportSchema, { project: projectId, environment: sent.environment, data });
  if (!parsed.success) {
    const { message } = formatIssues(parsed.issues);
    return refuse(message.startsWith('"environment"') ? 'environment' : 'data', message);
  }
  return { body: parsed.output };
}

export const transferPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/projects/:projectId/transfer', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'A project\'s export and import', params: ProjectParamsSchema, success: PAGE,
    handle: ({ c, deps, project }) => {
      const search = new URL(c.req.url).searchParams;
      const count = (name: string) => Math.max(0, Number(search.get(name)) || 0);
      const done = search.get('done') === 'imported' ? { created: count('created'), updated: count('updated'), skipped: count('skipped') } : undefined;
      return transferAnswer(c, deps, project(), { done });
    },
  }),
  defineRoute({
    method: 'get', path: '/projects/:projectId/transfer/export', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'Download the export of a project\'s flags in one environment (Unleash\'s format, as a JSON file)', params: ProjectParamsSchema,
    query: ExportPageQuerySchema, success: { status: 200, description: 'The export, `Content-Disposition: attachment`' }, errors: ['NotFoundError'],
    handle: ({ c, deps, params, query }) => {
      const exported = exportFeatures(deps.registry, { environment: query.environment, project: params.projectId, downloadFile: true });
      if (!exported.ok) throw apiError(exported.error.kind, exported.error.message);
      const filename = `${params.projectId}-${query.environment}.json`.replace(/[^A-Za-z0-9._-]/g, '_');
      return c.body(JSON.stringify(exported.value, null, 2), 200, {
        'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"`,
      });
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:projectId/transfer/validate', tag: 'Console', permission: 'READ', authentication: 'session', page: true, bodyLimit: 'import',
    summary: 'Dry run of an import into the project: its errors, warnings and missing permissions, nothing changed', params: ProjectParamsSchema, success: PAGE,
    handle: async ({ c, deps, params, principal, project }) => {
      const sent = await sentImport(c);
      const data = jsonOf(sent);
      if ('refused' in data) return transferAnswer(c, deps, project(), { form: data.refused }, 400);
      // As the API's dry run: every problem of the file listed at once, none of it a refusal of the form.
      const checked = await validateImport(deps.registry, parseImportForDryRun({ project: params.projectId, environment: sent.environment, data: data.value }), principal);
      if (!checked.ok) return transferAnswer(c, deps, project(), { form: { ...sent, error: { field: null, message: checked.error.message } } }, STATUS[checked.error.kind]);
      const features = (data.value as { features?: unknown }).features;
      return transferAnswer(c, deps, project(), { form: { ...sent, dryRun: { ...checked.value, flags: Array.isArray(features) ? features.length : 0 } } });
    },
  }),
  defineRoute({
    method: 'post', path: '/projects/:projectId/transfer/import', tag: 'Console', permission: 'UPDATE_DEFINITIONS', authentication: 'session', page: true, bodyLimit: 'import',
    summary: 'Import into the project: all of it or nothing (the dry run\'s errors shown again when refused)', params: ProjectParamsSchema,
    success: { status: 303, description: 'Back to the page, with what changed' },
    handle: async ({ c, deps, params, principal, project }) => {
      const sent = await sentImport(c);
      const built = importBody(params.projectId, sent);
      if ('refused' in built) return transferAnswer(c, deps, project(), { form: built.refused }, 400);
      const imported = await importFeatures(deps.registry, built.body, principal);
      if (!imported.ok) {
        // A refusal names every error in its details: shown as the dry run shows them.
        const errors = (imported.error.details ?? []).map((d) => ({ message: d.message, affectedItems: [] }));
        const form: ImportState = errors.length > 0
          ? { ...sent, dryRun: { errors, warnings: [], permissions: [], flags: built.body.data.features.length } }
          : { ...sent, error: { field: null, message: imported.error.message } };
        return transferAnswer(c, deps, project(), { form }, STATUS[imported.error.kind]);
      }
      const { created, updated, skipped } = imported.value;
      return c.redirect(`/projects/${encodeURIComponent(params.projectId)}/transfer?done=imported&created=${created.length}&updated=${updated.length}&skipped=${skipped.length}`, 303);
    },
  }),
];
