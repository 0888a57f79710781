/**
 * Export and import in Unleash 6.10's format (docs/api-decisions.md "Export and import"; Unleash's
 * `/api/admin/features-batch` routes). The export is a read (`READ`); the import creates tag types and
 * context fields as well as flags in any project, so it needs what both need: `UPDATE_DEFINITIONS` (root
 * Admins and Editors, admin tokens). A dry run is a read that lists, in `permissions`, what the caller lacks.
 */
import { ExportDataSchema, ExportQuerySchema, ImportDryRunBodySchema, ImportSchema, ImportValidateAnswerSchema } from '../../schemas/import.schema.js';
import { parseImportForDryRun } from '../../schemas/import-dry-run-parse.js';
import { exportFeatures } from '../../queries/export.query.js';
import { importFeatures, validateImport } from '../../use-cases/import.use-cases.js';
import { setResponseHeader } from '../answers/answer.js';
import { defineRoute, type RouteSpec } from '../route.js';

const BATCH = '/api/admin/features-batch';

export const featuresBatchRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: `${BATCH}/export`, tag: 'Import/Export', permission: 'READ',
    summary: 'Export flags of one environment (by names, tag or project) in Unleash 6.10\'s format',
    body: ExportQuerySchema,
    success: { status: 200, description: 'The export', schema: ExportDataSchema }, errors: ['NotFoundError'],
    handle: ({ c, body, registry }) => {
      const result = exportFeatures(registry, body);
      if (result.ok && body.downloadFile) setResponseHeader(c, 'Content-Disposition', `attachment; filename="export-${body.environment}.json"`);
      return result;
    },
    view: (data) => data,
  }),
  defineRoute({
    method: 'post', path: `${BATCH}/validate`, tag: 'Import/Export', permission: 'READ', bodyLimit: 'import',
    summary: 'Dry run of an import: every error and warning (the body\'s schema issues, part by part, among the errors), nothing changed; 400 only for a body that is not an object',
    body: ImportDryRunBodySchema,
    success: { status: 200, description: 'Errors, warnings and missing permissions', schema: ImportValidateAnswerSchema }, errors: ['NotFoundError'],
    handle: ({ body, principal, registry }) => validateImport(registry, parseImportForDryRun(body), principal),
    view: (validation) => validation,
  }),
  defineRoute({
    method: 'post', path: `${BATCH}/import`, tag: 'Import/Export', permission: 'UPDATE_DEFINITIONS', bodyLimit: 'import',
    summary: 'Import flags into one project and environment: all of it, or nothing (400 naming every error)',
    body: ImportSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError', 'ExceedsLimitError'],
    handle: async ({ body, principal, registry }) => {
      const result = await importFeatures(registry, body, principal);
      return result.ok ? { ok: true, value: null } : result;
    },
  }),
];
