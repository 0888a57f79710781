/**
 * The forms of the definition pages (context fields, tag types, strategy definitions): their fields are named by
 * the API body's dot paths (`description`, `legalValues.2.value`, `parameters.0.type`), so a message of the API
 * names the field it belongs next to. Rows (legal values, parameters) become drafts the form shows again after a
 * refusal, and drafts become the body the API's schema validates.
 */

/** One legal value as the form holds it. */
export interface LegalValueDraft {
  value: string;
  description: string;
}

/** One strategy parameter as the form holds it. */
export interface ParameterDraft {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

/**
 * The row numbers of `prefix.<n>.*` fields in a form, in order. Rows added by the page's script are numbered on;
 * a gap (a row removed in the page) is no end of the list.
 */
function rowsOf(form: Record<string, string>, prefix: string): number[] {
  const rows = new Set<number>();
  const pattern = new RegExp(`^${prefix}\\.(\\d{1,4})\\.`);
  for (const key of Object.keys(form)) {
    const found = pattern.exec(key);
    if (found) rows.add(Number(found[1]));
  }
  return [...rows].sort((a, b) => a - b);
}

/**
 * The legal values a form lists: rows marked `remove` and rows left empty are dropped, so a row's index in the
 * draft is its index in the body (and in the form shown again).
 */
export function legalValuesFromForm(form: Record<string, string>): LegalValueDraft[] {
  const drafts: LegalValueDraft[] = [];
  for (const row of rowsOf(form, 'legalValues')) {
    const at = (field: string) => form[`legalValues.${row}.${field}`] ?? '';
    const draft = { value: at('value').trim(), description: at('description').trim() };
    if (at('remove') === 'on' || (draft.value === '' && draft.description === '')) continue;
    drafts.push(draft);
  }
  return drafts;
}

/** The parameters a form lists, as {@link legalValuesFromForm} reads its rows. */
export function parametersFromForm(form: Record<string, string>): ParameterDraft[] {
  const drafts: ParameterDraft[] = [];
  for (const row of rowsOf(form, 'parameters')) {
    const at = (field: string) => form[`parameters.${row}.${field}`] ?? '';
    const draft = { name: at('name').trim(), type: at('type') || 'string', description: at('description').trim(), required: at('required') === 'on' };
    if (at('remove') === 'on' || (draft.name === '' && draft.description === '')) continue;
    drafts.push(draft);
  }
  return drafts;
}

/** The legal values of the API body (`description` left out when empty, as the API stores them). */
export const legalValuesBodyOf = (drafts: readonly LegalValueDraft[]) =>
  drafts.map((d) => (d.description === '' ? { value: d.value } : { value: d.value, description: d.description }));

/** A trimmed form text, `null` when empty (the API's "no description"). */
export const textOrNull = (text: string | undefined): string | null => {
  const trimmed = (text ?? '').trim();
  return trimmed === '' ? null : trimmed;
};

/**
 * The form field a message of the API names (`"legalValues.1.value": ...` → `legalValues.1.value`,
 * `"parameters": must not name a parameter twice` → `parameters`), or null when it names none of `fields` or a row.
 * A name already taken (`kind` `NameExistsError`, whose message names no path) is about the `name` field.
 *
 * @example fieldOfMessage('"name": must be URL-friendly', ['name']) // 'name'
 */
export function fieldOfMessage(message: string, fields: readonly string[], kind?: string): string | null {
  if (kind === 'NameExistsError' && fields.includes('name')) return 'name';
  const path = /^"([^"]+)"/.exec(message)?.[1];
  if (path === undefined) return null;
  const row = /^(legalValues|parameters)\.(\d+)(?:\.(\w+))?/.exec(path);
  if (row && fields.includes(row[1]!)) return `${row[1]}.${row[2]}.${row[3] ?? (row[1] === 'legalValues' ? 'value' : 'name')}`;
  return fields.includes(path) ? path : null;
}
