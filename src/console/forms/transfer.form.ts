/**
 * The import form of a project's export and import page: the environment, and the export as a chosen file or
 * pasted text (the file wins: its text becomes the draft, so the page shows it again for the import that follows
 * a dry run). The dry run reads it as a JSON object (its use case lists every problem of the file at once); the
 * import validates it as the API's import body.
 */
import * as v from 'valibot';
import { ImportSchema } from '../../schemas/import.schema.js';
import { file, text } from './fields.js';
import { defineForm } from './form.js';

/** The form as sent, the chosen file read: the environment and the export's text. */
const ImportFields = v.pipeAsync(
  v.object({ environment: text(), data: text(), file: file() }),
  v.transformAsync(async ({ environment, data, file: chosen }) => ({ environment, data: chosen ? await chosen.text() : data })),
);
export type ImportDraft = { environment: string; data: string };

/** The export's text as a JSON object, or an issue that says what it is instead. */
const ExportJson = v.pipe(v.string(), v.rawTransform(({ dataset, addIssue, NEVER }) => {
  if (dataset.value.trim() === '') {
    addIssue({ message: 'Choose an export file or paste its JSON.' });
    return NEVER;
  }
  let value: unknown;
  try {
    value = JSON.parse(dataset.value);
  } catch (error) {
    addIssue({ message: `This is not JSON: ${(error as Error).message}` });
    return NEVER;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  addIssue({ message: 'An export is a JSON object with "features", "featureStrategies" and the other parts of Unleash\'s export.' });
  return NEVER;
}));

/** The environment's issues go next to its select; every other one (the export's) next to the text. */
const field = (path: string) => (path.split('.')[0] === 'environment' ? 'environment' : 'data');

/** A dry run: the export as a JSON object, checked by the dry run's use case. */
export const ImportCheckForm = defineForm({
  name: 'import', fields: ImportFields, schema: v.object({ environment: v.string(), data: ExportJson }), field, sentences: ['data'],
});

/** An import: the export as the API's import body into this project (`data` the export's JSON). */
export const ImportForm = defineForm({
  name: 'import',
  fields: ImportFields,
  body: (draft, params) => ({ project: params['projectId'], environment: draft.environment, data: draft.data }),
  schema: v.pipe(v.object({ project: v.unknown(), environment: v.unknown(), data: ExportJson }), ImportSchema),
  field, sentences: ['data'],
});
