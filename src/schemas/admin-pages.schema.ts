/**
 * The URL state of the console's user, account and token pages (`/admin/users`, `/admin/tokens`, `/account`),
 * validated as an API route validates its query; and the one-time password link's forms.
 */
import * as v from 'valibot';
import { looseObject } from './common.schema.js';
import { mustBe } from './messages.js';

/** `?q=&page=&done=`: a search, a page number (from 1) and the confirmation of a change just made. */
export const ListPageQuerySchema = looseObject({
  q: v.optional(v.pipe(v.string(mustBe('a string, given once')), v.maxLength(200, 'must be at most 200 characters'), v.transform((s) => s.trim())), ''),
  page: v.optional(v.pipe(v.string(mustBe('a string, given once')), v.regex(/^\d{0,6}$/, 'must be a whole number'), v.transform((s) => Number(s) || 1)), '1'),
  done: v.optional(v.pipe(v.string(mustBe('a string, given once')), v.maxLength(40, 'must be at most 40 characters'))),
});
export type ListPageQuery = v.InferOutput<typeof ListPageQuerySchema>;

/** A list's first page, unsearched (where a form's answer shows the list again). */
export const FIRST_LIST_PAGE: ListPageQuery = { q: '', page: 1 };

/** `?done=` alone (a page that is no list). */
export const DoneQuerySchema = looseObject({
  done: v.optional(v.pipe(v.string(mustBe('a string, given once')), v.maxLength(40, 'must be at most 40 characters'))),
});

const field = (max: number) => v.optional(v.pipe(v.string(mustBe('a string, given once')), v.maxLength(max, `must be at most ${max} characters`)), '');

/** The landing form of a one-time password link (`POST /set-password`): its secret (checked where it is used). */
export const SetPasswordLinkSchema = looseObject({ secret: v.pipe(field(100), v.transform((s) => s.trim())) });

/** The new-password form of a link (`POST /set-password/save`). */
export const SetPasswordFormSchema = looseObject({ secret: v.pipe(field(100), v.transform((s) => s.trim())), password: field(256), confirmPassword: field(256) });
