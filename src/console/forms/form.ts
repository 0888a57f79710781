/**
 * A console form, declared as an API route declares its body: the fields as sent (parsed once) are read into
 * the form's draft by `fields`, the draft becomes the API's body (`body`), and `schema` validates that into the
 * value the page's handler gets. A refusal, by the schema or by the use case, comes back as a {@link Refusal}:
 * the draft to show again and the field-error map its view marks (`aria-invalid`), built from the error's paths.
 *
 * @example
 * export const NewFlagForm = defineForm({
 *   name: 'new-flag',
 *   fields: v.object({ name: trimmed(), type: text(), description: text() }),
 *   schema: CreateFeatureSchema,
 * });
 */
import * as v from 'valibot';
import type { DomainError } from '../../domain/errors.js';
import { formatIssues } from '../../schemas/issues.js';
import { STATUS } from '../../http/errors.js';

/** A form of a page. `D`: its draft (what it shows again); `T`: what the handler gets. */
export interface PageForm<D = unknown, T = unknown> {
  /** Which form of its page this is, as the page's views name it (a page may hold several). */
  readonly name: string;
  /** The fields as sent → the draft. Its readers never refuse (`fields.ts`); one may read a file (async). */
  readonly fields: v.GenericSchema<unknown, D> | v.GenericSchemaAsync<unknown, D>;
  /** The draft (and the path's parameters) → what `schema` validates (the API's body); absent: the draft itself. */
  body?(draft: D, params: Record<string, unknown>): unknown;
  /** What the handler gets, validated; usually the API route's body schema. */
  readonly schema: v.GenericSchema<unknown, T> | v.GenericSchemaAsync<unknown, T>;
  /** The form field an error path names (`constraints.0.value` → `constraints.0.values`), or undefined: the form as a whole. */
  field(path: string): string | undefined;
  /** The field a name already taken names (`NameExistsError` carries no path), if the form has one. */
  readonly taken?: string | undefined;
  /** A form of one field: the field every error naming no field is about. */
  readonly single?: string | undefined;
  /** Fields whose own messages are whole sentences, shown without the `"field": ` the API puts before them. */
  readonly sentences?: readonly string[] | undefined;
}

/** The value a form's handler gets (`T`), and its draft (`D`). */
export type FormValue<F> = F extends PageForm<unknown, infer T> ? T : undefined;
export type FormDraft<F> = F extends PageForm<infer D, unknown> ? D : undefined;

/**
 * Declares a form. `field` defaults to the top-level fields of `fields` (a path names its first segment when that
 * is one of them); `taken` to `name` when a path `name` names the `name` field.
 */
export function defineForm<D, T>(spec: {
  name: string;
  fields: v.GenericSchema<unknown, D> | v.GenericSchemaAsync<unknown, D>;
  body?: (draft: D, params: Record<string, unknown>) => unknown;
  schema: v.GenericSchema<unknown, T> | v.GenericSchemaAsync<unknown, T>;
  field?: (path: string) => string | undefined;
  taken?: string;
  single?: string;
  sentences?: readonly string[];
}): PageForm<D, T> {
  const entries = 'entries' in spec.fields ? Object.keys(spec.fields.entries as object) : [];
  const top = (path: string) => {
    const first = path.split('.')[0]!;
    return entries.includes(first) ? first : undefined;
  };
  const field = spec.field ?? top;
  return { ...spec, field, taken: spec.taken ?? (field('name') === 'name' ? 'name' : undefined) };
}

/** A form as read: its draft, and the schema's answer (the value, or the error refusing it). */
export type ReadForm<D = unknown, T = unknown> = { draft: D } & ({ ok: true; value: T } | { ok: false; error: DomainError });

/** Reads what was sent into `form`'s draft and validates it (`params`: the page's path, validated). */
export async function readForm<D, T>(form: PageForm<D, T>, sent: unknown, params: Record<string, unknown> = {}): Promise<ReadForm<D, T>> {
  const draft = await v.parseAsync(form.fields, sent);
  const checked = await v.safeParseAsync(form.schema, form.body ? form.body(draft, params) : draft);
  if (checked.success) return { draft, ok: true, value: checked.output };
  const { message, details } = formatIssues(checked.issues);
  return { draft, ok: false, error: { kind: 'ValidationError', message, details } };
}

/**
 * A refused form, to show again: which form, its status, the field-error map (form field → message, every field
 * the error names), the message for the form as a whole (when the error names no field of it, or more than the
 * fields it names), and the draft as sent.
 */
export interface Refusal<D = Record<string, unknown>> {
  form: string;
  status: number;
  fields: Readonly<Record<string, string>>;
  alert: string | undefined;
  draft: D;
  error: DomainError;
}

/** The refusal of `form` by `error`, with `draft` to show again. */
export function refusalOf<D>(form: Pick<PageForm, 'name' | 'field' | 'taken' | 'single' | 'sentences'>, error: DomainError, draft: D): Refusal<D> {
  // Keyed by field names a form may take from the request (a context property's): no prototype to reach.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const unplaced: string[] = [];
  const place = (path: string | undefined, message: string) => {
    const field = path === undefined ? undefined : form.field(path);
    if (field === undefined) unplaced.push(message);
    else fields[field] ??= path === field && form.sentences?.includes(field) && message.startsWith(`"${field}": `) ? message.slice(field.length + 4) : message;
  };
  if (error.details && error.details.some((d) => d.path !== undefined)) for (const detail of error.details) place(detail.path, detail.message);
  else if (error.path !== undefined) place(error.path, error.message);
  else if (error.kind === 'NameExistsError' && form.taken !== undefined) fields[form.taken] = error.message;
  if (Object.keys(fields).length === 0 && form.single !== undefined) fields[form.single] = unplaced.length > 0 ? unplaced.join('; ') : error.message;
  const placed = Object.keys(fields).length > 0;
  return { form: form.name, status: STATUS[error.kind], fields, alert: placed ? (unplaced.length > 0 ? unplaced.join('; ') : undefined) : error.message, draft, error };
}

/** A refusal made by the page itself, not by a schema or a use case (a field the page checks, a confirmation that differs). */
export function refusalAt<D>(form: Pick<PageForm, 'name' | 'field' | 'taken' | 'single'>, field: string, message: string, draft: D): Refusal<D> {
  return refusalOf(form, { kind: 'ValidationError', message, path: field }, draft);
}
