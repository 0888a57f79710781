/** @jsxImportSource hono/jsx */
/**
 * What every form of the console shares: the CSRF field, ids, and a refused form's messages where they belong.
 * A refusal (`forms/form.ts`) names its form and maps each field it is about to its message: the field gets
 * `aria-invalid` and its message under it (`aria-describedby`); the rest goes to the form as a whole.
 */
import type { Child } from 'hono/jsx';
import type { Refusal } from '../forms/form.js';
import { CsrfField } from '../layout.js';

export type { Refusal };

/** `refusal` when it is of `form` (typed as that form's draft), else undefined. */
export function refusedIn<D>(refusal: Refusal<unknown> | undefined, form: string): Refusal<D> | undefined {
  return refusal?.form === form ? (refusal as Refusal<D>) : undefined;
}

/** An element id made of parts: anything but letters, digits, `-` and `_` becomes `-`. */
export const idOf = (...parts: string[]): string => parts.join('-').replace(/[^A-Za-z0-9_-]/g, '-');

/**
 * The session's CSRF token (from the request: `useFrame`) as the hidden field of a plain form; with `ifMatch` (the
 * `ETag` of the flag version the page shows), that too: the page makes the write conditional on it, as the API does
 * on `If-Match`. The sign-in forms name their own `token` (before any session).
 */
export function Csrf({ token, ifMatch }: { token?: string | undefined; ifMatch?: string | undefined }) {
  return (
    <>
      <CsrfField token={token} />
      {ifMatch ? <input type="hidden" name="ifMatch" value={ifMatch} /> : null}
    </>
  );
}

/** The message of `field` in `form`'s refusal, if it names that field. */
const messageOf = (refusal: Refusal<unknown> | undefined, form: string, field: string): string | undefined =>
  refusal?.form === form ? refusal.fields[field] : undefined;

/** The attributes of a field a refusal may name: `aria-invalid` and `aria-describedby` pointing at its message. */
export function errorAttrs(refusal: Refusal<unknown> | undefined, form: string, field: string, id: string, hint?: string) {
  const named = messageOf(refusal, form, field) !== undefined;
  const describedBy = [named ? `${id}-error` : undefined, hint].filter(Boolean).join(' ');
  return { 'aria-invalid': named ? 'true' : undefined, 'aria-describedby': describedBy === '' ? undefined : describedBy };
}

/** A refusal's message under the field it names. */
export function FieldError({ error, form, field, id }: { error: Refusal<unknown> | undefined; form: string; field: string; id: string }) {
  const message = messageOf(error, form, field);
  return message !== undefined ? <p class="field-error" id={`${id}-error`} role="alert">{message}</p> : null;
}

/** A refusal's message for the form as a whole (what names no field of the form). */
export function FormAlert({ error, form, class: className }: { error: Refusal<unknown> | undefined; form: string; class?: string }) {
  return error?.form === form && error.alert !== undefined ? <p class={className ?? 'alert alert-error'} role="alert">{error.alert}</p> : null;
}

/** A small post form of one button (`_csrf` and `ifMatch` included). */
export function PostButton(props: { action: string; ifMatch?: string; label: Child; class?: string; fields?: Record<string, string>; ariaLabel?: string }) {
  return (
    <form method="post" action={props.action} class="inline-form">
      <Csrf ifMatch={props.ifMatch} />
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
