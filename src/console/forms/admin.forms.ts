/**
 * The forms of the administration's environments, users and API tokens pages, validated by the API's body
 * schemas for the same writes.
 */
import * as v from 'valibot';
import { CreateApiTokenSchema, CreateUserSchema, UpdateUserSchema } from '../../schemas/access.schema.js';
import { CreateEnvironmentSchema, UpdateEnvironmentSchema } from '../../schemas/project.schema.js';
import { list, text, trimmed } from './fields.js';
import { defineForm } from './form.js';

/** A date field (`YYYY-MM-DD`) as the API's expiry: the end of that day, UTC; anything else as typed, for the schema to name. */
export const endOfDay = (date: string): string | undefined => (date === '' ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59Z` : date);

/** A number field as the API takes it (a role id), or the text as typed for the schema to name. */
const numberOr = (text: string): number | string => Number(text) || text;

/** A new environment. */
export const NewEnvironmentForm = defineForm({ name: 'create', fields: v.object({ name: trimmed(), type: text() }), schema: CreateEnvironmentSchema });

/** An environment's type (the form's name is `type:<environment>`). */
export const EnvironmentTypeForm = defineForm({ name: 'type', fields: v.object({ type: text() }), schema: UpdateEnvironmentSchema });

/** A new user: who they are, their root role, and a password set now or a one-time link (`signIn`). */
export const NewUserForm = defineForm({
  name: 'new-user',
  fields: v.object({ name: trimmed(), username: trimmed(), email: trimmed(), rootRole: text('3'), signIn: text('link'), password: text() }),
  body: (draft) => ({
    name: draft.name || undefined, username: draft.username || undefined, email: draft.email || undefined, rootRole: numberOr(draft.rootRole),
    ...(draft.signIn === 'password' ? { password: draft.password } : {}),
  }),
  schema: CreateUserSchema,
  field: (path) => (['name', 'username', 'email', 'rootRole', 'password'].includes(path) ? path : undefined),
});

/** A user's root role. */
export const RoleForm = defineForm({ name: 'role', fields: v.object({ rootRole: text() }), body: (draft) => ({ rootRole: numberOr(draft.rootRole) }), schema: UpdateUserSchema, single: 'rootRole' });

/** A password an Admin sets for a user (its rules are the use case's). */
export const SetPasswordForm = defineForm({ name: 'password', fields: v.object({ password: text() }), schema: v.object({ password: v.string() }), single: 'password' });

/** A new API token: checked projects (`projects`, `*` for all; an admin token's scope is all), an optional expiry day. */
export const NewTokenForm = defineForm({
  name: 'new-token',
  fields: v.object({ tokenName: trimmed(), type: text('client'), projects: list(), environment: text(), expiresAt: trimmed() }),
  body: (draft) => ({
    tokenName: draft.tokenName, type: draft.type,
    ...(draft.type === 'admin' ? {} : { projects: draft.projects.includes('*') ? ['*'] : draft.projects, environment: draft.environment }),
    ...(draft.expiresAt === '' ? {} : { expiresAt: endOfDay(draft.expiresAt) }),
  }),
  // A client or frontend token reads at least one project: said before the API's schema says it its way.
  schema: v.pipe(v.looseObject({ projects: v.optional(v.pipe(v.array(v.string()), v.minLength(1, 'choose at least one project, or all'))) }), CreateApiTokenSchema),
  field: (path) => { const head = path.split('.')[0]!; return ['tokenName', 'type', 'projects', 'environment', 'expiresAt'].includes(head) ? head : undefined; },
});
