/**
 * The variants rows of the flag's variants form and of the strategy form: one row per variant (`variants.<n>.name`, `.weightType`, `.weight` in percent,
 * `.stickiness`, `.payloadType`, `.payloadValue`, `.overrides`, `.remove`) and one empty row that adds a variant.
 * The rows become the list the API's `PUT .../variants` takes. Overrides are lines `<context field>: <value>, ...`.
 */
import type { Variant } from '../../domain/types.js';

/** One variant as the form holds it. */
export interface VariantDraft {
  name: string;
  weightType: string;
  /** Percent, as typed (`33.3`). */
  weight: string;
  stickiness: string;
  payloadType: string;
  payloadValue: string;
  /** One line per override: `userId: 1, 2`. */
  overrides: string;
}

/** A stored variant (of the flag, or of a strategy: no overrides) as a row. */
export const variantDraftOf = (v: Omit<Variant, 'overrides'> & { overrides?: Variant['overrides'] }): VariantDraft => ({
  name: v.name, weightType: v.weightType, weight: String(v.weight / 10), stickiness: v.stickiness,
  payloadType: v.payload?.type ?? '', payloadValue: v.payload?.value ?? '',
  overrides: (v.overrides ?? []).map((o) => `${o.contextName}: ${o.values.join(', ')}`).join('\n'),
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

/** The rows a submitted form holds: removed rows and an untouched new row are left out. */
export function variantDraftsFromForm(form: Record<string, string>): VariantDraft[] {
  const rows: VariantDraft[] = [];
  for (let n = 0; form[`variants.${n}.name`] !== undefined; n += 1) {
    const at = (field: string) => (form[`variants.${n}.${field}`] ?? '').trim();
    if (at('remove') === 'on' || (at('new') === 'true' && at('name') === '')) continue;
    rows.push({ name: at('name'), weightType: at('weightType'), weight: at('weight'), stickiness: at('stickiness'), payloadType: at('payloadType'), payloadValue: form[`variants.${n}.payloadValue`] ?? '', overrides: at('overrides') });
  }
  return rows;
}

/**
 * The API body of the rows (before validation); a weight that is not a number is sent as typed, for the schema to
 * name. Strategy variants have no overrides (`withOverrides: false`).
 */
export function variantsBodyOf(rows: VariantDraft[], withOverrides = true): Record<string, unknown>[] {
  return rows.map((row) => {
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

/** The field of the form a message names (`"1.payload.value": ...` → `variants.1.payloadValue`), or null. */
export function variantFieldOf(message: string): string | null {
  const found = /^"(?:variants\.)?(\d+)\.(\w+)(?:\.(\w+))?[."]/.exec(message);
  if (!found) return null;
  const [, row, field, sub] = found;
  if (field === 'payload') return `variants.${row}.${sub === 'type' ? 'payloadType' : 'payloadValue'}`;
  if (field === 'overrides') return `variants.${row}.overrides`;
  return ['name', 'weightType', 'weight', 'stickiness'].includes(field!) ? `variants.${row}.${field}` : null;
}
