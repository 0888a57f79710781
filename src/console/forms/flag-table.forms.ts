/**
 * The forms of a project's flag table: a new flag, the switch of a flag in an environment (the flag page's switch
 * posts the same fields), and the bulk bar.
 */
import * as v from 'valibot';
import { BackFormSchema, BulkFormSchema, StaleBulkFormSchema, SwitchFormSchema } from '../../schemas/console.schema.js';
import { CreateFeatureSchema } from '../../schemas/feature.schema.js';
import { checkbox, list, text, trimmed } from './fields.js';
import { defineForm } from './form.js';

/** A new flag of the project. */
export const NewFlagForm = defineForm({ name: 'new-flag', fields: v.object({ name: trimmed(), type: text('release'), description: text() }), schema: CreateFeatureSchema });
export type NewFlagDraft = v.InferOutput<typeof NewFlagForm.fields>;

/**
 * A flag switched on (`enabled` checked) or off in an environment, with the offer's choice when one was taken
 * (`with`), and `ifMatch`, the version the page showed. The table's switch and the flag page's send the same.
 */
export const SwitchForm = defineForm({
  name: 'switch',
  fields: v.object({ enabled: checkbox(), with: text(), back: text() }),
  body: (draft) => ({ enabled: draft.enabled, back: draft.back, ...(draft.with === '' ? {} : { with: draft.with }) }),
  schema: SwitchFormSchema,
  field: () => undefined,
});

/** The bulk bar: the selected flags and the button pressed. */
export const BulkForm = defineForm({
  name: 'bulk', fields: v.object({ features: list(), action: text(), environment: text(), back: text() }), schema: BulkFormSchema, field: () => undefined,
});

/** The stale page's bulk bar, and its archive confirmation (`confirmed`). */
export const StaleBulkForm = defineForm({
  name: 'stale-bulk', fields: v.object({ features: list(), action: text(), confirmed: checkbox(), back: text() }), schema: StaleBulkFormSchema, field: () => undefined,
});

/** A button that returns to the list it was pressed on (`back`: that list's address). */
export const BackForm = defineForm({ name: 'back', fields: v.object({ back: text() }), schema: BackFormSchema, field: () => undefined });
