/**
 * Readers of the fields a form sends, as valibot schemas: what `parseBody({ all: true, dot: true })` gives (a
 * text, a file, several values, or rows nested by their dot paths) read into the form's draft, the values it
 * shows again after a refusal. A reader never refuses: a missing or repeated field reads as the form would show
 * it. Refusing is the form's schema's work (`form.ts`), usually the API's.
 *
 * @example v.object({ name: trimmed(), stale: checkbox(), constraints: rows(ConstraintRow) })
 */
import * as v from 'valibot';

/** What one field can be sent as, once parsed (dot paths nest into objects). */
type Sent = unknown;

const firstText = (value: Sent): string => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return firstText(value[0]);
  return '';
};

/** What a reader is handed for a field that was not sent (an object's missing key is otherwise an issue). */
const MISSING = Symbol('not sent');

/** A reader of one field: `read` gets the value sent, or undefined when none was. */
const reader = <T>(read: (value: Sent) => T) => v.optional(v.pipe(v.unknown(), v.transform((value) => read(value === MISSING ? undefined : value))), MISSING);

/** A text field as typed (`absent` when not sent; the first value of a field sent twice). */
export const text = (absent = '') => reader((value) => (value === undefined ? absent : firstText(value)));

/** A text field, trimmed. */
export const trimmed = (absent = '') => reader((value) => (value === undefined ? absent : firstText(value).trim()));

/** A checkbox: checked when sent (as `on`, or any value but `off`). */
export const checkbox = () => reader((value) => value !== undefined && value !== '' && firstText(value) !== 'off');

/** A field that may be sent several times (checkboxes of one name): every non-empty text value, in order, once each. */
export const list = () => reader((value) => [...new Set((Array.isArray(value) ? value : [value]).map(firstText).filter((item) => item !== ''))]);

/** A file field: the file when one was chosen (not empty), else undefined. */
export const file = () => reader((value) => (value instanceof File && value.size > 0 ? value : undefined));

/** A group of fields named `<group>.<key>` (a strategy's parameters): each key's text, trimmed. */
export const group = () => reader((value) => {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof File)) {
    for (const [key, item] of Object.entries(value)) out[key] = firstText(item).trim();
  }
  return out;
});

/**
 * Rows of fields named `<rows>.<n>.<field>` (constraints, variants, legal values), in the order of `n`: each
 * read by `row`, without those marked `<rows>.<n>.remove` and those `blank` says are the empty row the form
 * offers for a new entry (`isNew`: sent with `<rows>.<n>.new`). A row's index in the draft is then its index in
 * the API body, so a message about `constraints.1` lands on the second row the form shows again.
 */
export function rows<S extends v.GenericSchema>(row: S, blank: (row: v.InferOutput<S>, isNew: boolean) => boolean = () => false) {
  return reader((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof File) return [];
    const numbered = Object.entries(value as Record<string, unknown>)
      .filter(([key]) => /^\d{1,4}$/.test(key))
      .sort(([a], [b]) => Number(a) - Number(b));
    const drafts: v.InferOutput<S>[] = [];
    for (const [, sent] of numbered) {
      const fields = (sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? sent : {}) as Record<string, unknown>;
      if (firstText(fields['remove']) === 'on') continue;
      const draft = v.parse(row, fields);
      if (!blank(draft, firstText(fields['new']) === 'true')) drafts.push(draft);
    }
    return drafts;
  });
}
