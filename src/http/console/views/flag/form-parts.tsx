/** @jsxImportSource hono/jsx */
/** Pieces every form of the flag page shares: the CSRF field, ids, and the API's message next to its field. */
import type { Child } from 'hono/jsx';
import type { StrategyDraft } from '../../strategy-form-fields.js';
import type { VariantDraft } from '../../variant-form-fields.js';

/** A refused form, shown again with the API's message next to the field it names. */
export interface PageError {
  /** Which form of the page was refused (`metadata`, `strategy:<env>:<id|new>`, ...). */
  form: string;
  /** The form field the message names (the API body's dot path), or null for the form as a whole. */
  field: string | null;
  message: string;
  /** The fields as sent, to show them again. */
  values: Record<string, string>;
  /** A refused strategy form's draft, shown again as sent. */
  draft?: StrategyDraft | undefined;
  /** A refused variants form's rows, shown again as sent. */
  variants?: VariantDraft[] | undefined;
}

/** An element id made of parts: anything but letters, digits, `-` and `_` becomes `-`. */
export const idOf = (...parts: string[]): string => parts.join('-').replace(/[^A-Za-z0-9_-]/g, '-');

/**
 * The session's CSRF token as the hidden field of a plain form; with `ifMatch` (the `ETag` of the flag version
 * the page shows), that too: the page's route makes the write conditional on it, as the API does on `If-Match`.
 */
export function Csrf({ token, ifMatch }: { token: string | undefined; ifMatch?: string | undefined }) {
  return (
    <>
      {token ? <input type="hidden" name="_csrf" value={token} /> : null}
      {ifMatch ? <input type="hidden" name="ifMatch" value={ifMatch} /> : null}
    </>
  );
}

/** The attributes of a field the error may name: `aria-invalid` and `aria-describedby` pointing at the message. */
export function errorAttrs(error: PageError | undefined, form: string, field: string, id: string, hint?: string) {
  const named = error?.form === form && error.field === field;
  const describedBy = [named ? `${id}-error` : undefined, hint].filter(Boolean).join(' ');
  return { 'aria-invalid': named ? 'true' : undefined, 'aria-describedby': describedBy === '' ? undefined : describedBy };
}

/** The API's message under the field it names. */
export function FieldError({ error, form, field, id }: { error: PageError | undefined; form: string; field: string; id: string }) {
  return error?.form === form && error.field === field ? <p class="field-error" id={`${id}-error`} role="alert">{error.message}</p> : null;
}

/** The API's message for the form as a whole (it names no field of the form). */
export function FormAlert({ error, form }: { error: PageError | undefined; form: string }) {
  return error?.form === form && error.field === null ? <p class="alert alert-error" role="alert">{error.message}</p> : null;
}

/** A small post form of one button (`_csrf` and `ifMatch` included). */
export function PostButton(props: { action: string; csrf: string | undefined; ifMatch?: string; label: Child; class?: string; fields?: Record<string, string>; ariaLabel?: string }) {
  return (
    <form method="post" action={props.action} class="inline-form">
      <Csrf token={props.csrf} ifMatch={props.ifMatch} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => <input type="hidden" name={name} value={value} />)}
      <button type="submit" class={props.class ?? 'button button-small'} aria-label={props.ariaLabel}>{props.label}</button>
    </form>
  );
}

/** A date as people read it, in UTC, with the machine value in `<time>`. */
export function When({ at }: { at: string | null }) {
  if (at === null) return <span class="muted">never</span>;
  const text = `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
  return <time datetime={at}>{text}</time>;
}
