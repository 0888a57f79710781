/**
 * The variant rows of the flag's variants form and of the strategy form: one row per variant
 * (`variants.<n>.name`, `.weightType`, `.weight` in percent, `.stickiness`, `.payloadType`, `.payloadValue`,
 * `.overrides`, `.remove`) and one empty row that adds a variant (`.new`). The rows become the list the API's
 * `PUT .../variants` takes; overrides are lines `<context field>: <value>, ...`.
 */
import * as v from 'valibot';
import type { Variant } from '../../domain/types.js';
import { VariantsSchema } from '../../schemas/variant.schema.js';
import { rows, text, trimmed } from './fields.js';
import { defineForm } from './form.js';

/** One variant as the form holds it. */
export const VariantRow = v.object({
  name: trimmed(), weightType: trimmed(), weight: trimmed(), stickiness: trimmed(), payloadType: trimmed(), payloadValue: text(), overrides: trimmed(),
});
export type VariantDraft = v.InferOutput<typeof VariantRow>;

/** The rows of a form: removed rows and the untouched new one (no name) are left out. */
export const variantRows = () => rows(VariantRow, (row, isNew) => isNew && row.name === '');

/** A stored variant (of the flag, or of a strategy: no overrides) as a row. */
export const variantDraftOf = (variant: Omit<Variant, 'overrides'> & { overrides?: Variant['overrides'] }): VariantDraft => ({
  name: variant.name, weightType: variant.weightType, weight: String(variant.weight / 10), stickiness: variant.stickiness,
  payloadType: variant.payload?.type ?? '', payloadValue: variant.payload?.value ?? '',
  overrides: (variant.overrides ?? []).map((o) => `${o.contextName}: ${o.values.join(', ')}`).join('\n'),
});

/** Override lines as the API's overrides; a line without `:` is a context field without values (for the schema to name). */
function overridesOf(text: string): { contextName: string; values: string[] }[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '').map((line) => {
    const colon = line.indexOf(':');
    const contextName = (colon < 0 ? line : line.slice(0, colon)).trim();
    const values = colon < 0 ? [] : line.slice(colon + 1).split(',').map((value) => value.trim()).filter((value) => value !== '');
    return { contextName, values };
  });
}

/**
 * The API body of the rows (before validation); a weight that is not a number is sent as typed, for the schema to
 * name. Strategy variants have no overrides (`withOverrides: false`).
 */
export function variantsBodyOf(drafts: readonly VariantDraft[], withOverrides = true): Record<string, unknown>[] {
  return drafts.map((row) => {
    const percent = Number(row.weight === '' ? '0' : row.weight);
    const body: Record<string, unknown> = {
      name: row.name, weightType: row.weightType,
      weight: Number.isFinite(percent) ? Math.round(percent * 10) : row.weight,
      stickiness: row.stickiness === '' ? 'default' : row.stickiness,
    };
    if (withOverrides) body['overrides'] = overridesOf(row.overrides);
    if (row.payloadType !== '') body['payload'] = { type: row.payloadType, value: row.payloadValue };
    return body;
  });
}

const OWN_FIELDS = ['name', 'weightType', 'weight', 'stickiness'];

/**
 * The form field an API path about a variant names (`variants.1.payload.value` → `variants.1.payloadValue`), or
 * undefined for a path about no field of a row (the list as a whole).
 */
export function variantField(path: string): string | undefined {
  const [head, row, part, sub] = path.split('.');
  if (head !== 'variants' || row === undefined || !/^\d+$/.test(row) || part === undefined) return undefined;
  if (part === 'payload') return `variants.${row}.${sub === 'type' ? 'payloadType' : 'payloadValue'}`;
  if (part === 'overrides') return `variants.${row}.overrides`;
  return OWN_FIELDS.includes(part) ? `variants.${row}.${part}` : undefined;
}

/** The flag's variants form: its rows, validated as `PUT .../variants` validates its body (a list: paths `<n>.…`). */
export const VariantsForm = defineForm({
  name: 'variants',
  fields: v.object({ variants: variantRows() }),
  body: (draft) => variantsBodyOf(draft.variants),
  schema: VariantsSchema,
  field: (path) => variantField(path.startsWith('variants.') ? path : `variants.${path}`),
});
