/** The forms shown before sign-in: the two ways to sign in, and a one-time password link's two steps. */
import * as v from 'valibot';
import { LoginFormSchema, TokenFormSchema } from '../../schemas/console.schema.js';
import { SetPasswordFormSchema, SetPasswordLinkSchema } from '../../schemas/admin-pages.schema.js';
import { text } from './fields.js';
import { defineForm } from './form.js';

/** Username (or email) and password; `next`: where to go once signed in. */
export const LoginForm = defineForm({ name: 'login', fields: v.object({ username: text(), password: text(), next: text() }), schema: LoginFormSchema, field: () => undefined });

/** An admin token or a personal access token. */
export const TokenLoginForm = defineForm({ name: 'token', fields: v.object({ token: text(), next: text() }), schema: TokenFormSchema, field: () => undefined });

/** A link's secret, moved from the address's fragment into the form by its page's script (or pasted). */
export const LinkForm = defineForm({ name: 'link', fields: v.object({ secret: text() }), schema: SetPasswordLinkSchema, field: () => undefined });

/** The new password of a link, typed twice. */
export const LinkPasswordForm = defineForm({
  name: 'new-password', fields: v.object({ secret: text(), password: text(), confirmPassword: text() }), schema: SetPasswordFormSchema, single: 'password',
});
