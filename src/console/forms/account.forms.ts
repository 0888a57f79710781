/** The forms of a person's own page: a personal access token, and their password. */
import * as v from 'valibot';
import { CreatePersonalTokenSchema } from '../../schemas/access.schema.js';
import { text, trimmed } from './fields.js';
import { defineForm } from './form.js';
import { endOfDay } from './admin.forms.js';

/** A new personal access token: its name and an optional expiry day. */
export const PersonalTokenForm = defineForm({
  name: 'token',
  fields: v.object({ description: trimmed(), expiresAt: trimmed() }),
  body: (draft) => ({ description: draft.description, ...(draft.expiresAt === '' ? {} : { expiresAt: endOfDay(draft.expiresAt) }) }),
  schema: CreatePersonalTokenSchema,
});

/** A new password, typed twice, and the current one when the person has one (its rules are the use case's). */
export const OwnPasswordForm = defineForm({
  name: 'password',
  fields: v.object({ currentPassword: text(), password: text(), confirmPassword: text() }),
  schema: v.object({ currentPassword: v.string(), password: v.string(), confirmPassword: v.string() }),
});
