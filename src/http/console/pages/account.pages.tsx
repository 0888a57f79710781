/** @jsxImportSource hono/jsx */
/**
 * A person's own page (`/account`, permission OWN_ACCOUNT): change their password (the current one first, its
 * failures limited as sign-ins are), their personal access tokens over the personal-token use cases (the secret
 * shown once, in the answer to the POST that made it), and signing out of every session of theirs.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import type { Principal } from '../../../auth/permissions.js';
import type { User } from '../../../domain/service-state.js';
import { personalTokens, roleById } from '../../../queries/access.query.js';
import { CreatePersonalTokenSchema } from '../../../schemas/access.schema.js';
import { DoneQuerySchema, fieldNamed } from '../../../schemas/admin-pages.schema.js';
import { looseObject, nonEmptyString } from '../../../schemas/common.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { changeOwnPassword } from '../../../use-cases/passwords.use-cases.js';
import { endEverySessionOf } from '../../../use-cases/sessions.use-cases.js';
import { createPersonalToken, revokeToken } from '../../../use-cases/tokens.use-cases.js';
import { ApiError, STATUS } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { clearSessionCookie } from '../cookies.js';
import { frameOf, renderPage } from '../render.js';
import { attemptSignIn, openSession } from '../sign-in.js';
import { AccountPage } from '../views/account/account-page.js';
import type { PageError } from '../views/flag/form-parts.js';
import { SecretOnce } from '../views/tokens/secret-once.js';

const PAGE = { status: 200, description: 'An HTML page' };
const REDIRECT = { status: 303, description: 'Back to the page, with a confirmation' };

/** `/account/tokens/:id/revoke`: a personal token's listing id. */
const TokenIdParamsSchema = looseObject({ id: nonEmptyString(100) });

/** The confirmations after a change (`?done=`): fixed texts, never one from the address. */
const NOTICES: Record<string, string> = { password: 'Password saved. Your other sessions have ended.', revoked: 'Token revoked.' };

/** The signed-in person (the route's permission, OWN_ACCOUNT, admits users only). */
function userOf(principal: Principal): User {
  if (principal.kind !== 'user') throw new ApiError({ kind: 'NoAccessError', message: 'Only a person has an account page' });
  return principal.user;
}

function accountPage(c: Context<AppEnv>, deps: AppDeps, principal: Principal, options: { status?: number; done?: string | undefined; refused?: PageError; secret?: string } = {}): Response {
  const user = userOf(principal);
  const role = roleById(user.rootRole);
  const secret = options.secret
    ? <SecretOnce assets={deps.console.assets} title="Your new personal access token" label="Token secret" value={options.secret} what="this token"
        use="Send it as the Authorization header of admin API requests, or sign in to the console with it." />
    : undefined;
  return renderPage(c, (
    <AccountPage frame={frameOf(c, deps)} user={user} roleName={role.ok ? role.value.name : 'User'} hasPassword={Object.hasOwn(deps.registry.service.state.passwords, String(user.id))}
      tokens={personalTokens(deps.registry, user.id)} notice={options.done !== undefined && Object.hasOwn(NOTICES, options.done) ? NOTICES[options.done] : undefined}
      refused={options.refused} secret={secret} />
  ), options.status ?? 200);
}

const formOf = (c: Context<AppEnv>): Record<string, string> => c.get('form') ?? {};

export const accountPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/account', tag: 'Console', permission: 'OWN_ACCOUNT', authentication: 'session', page: true,
    summary: 'The signed-in person\'s own page', query: DoneQuerySchema, success: PAGE,
    handle: ({ c, deps, principal, query }) => accountPage(c, deps, principal, { done: query.done }),
  }),
  defineRoute({
    // The page's own address: a reload of the answer (a GET) shows the page, never the secret again.
    method: 'post', path: '/account', tag: 'Console', permission: 'OWN_ACCOUNT', authentication: 'session', page: true,
    summary: 'Create a personal access token (its secret shown once)', success: { status: 201, description: 'The page with the token\'s secret' },
    handle: async ({ c, deps, principal }) => {
      const user = userOf(principal);
      const values = { description: (formOf(c)['description'] ?? '').trim(), expiresAt: (formOf(c)['expiresAt'] ?? '').trim() };
      const refuse = (status: number, message: string) =>
        accountPage(c, deps, principal, { status, refused: { form: 'token', field: fieldNamed(message, ['description', 'expiresAt']), message, values } });
      const parsed = v.safeParse(CreatePersonalTokenSchema, {
        description: values.description, ...(values.expiresAt === '' ? {} : { expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(values.expiresAt) ? `${values.expiresAt}T23:59:59Z` : values.expiresAt }),
      });
      if (!parsed.success) return refuse(400, formatIssues(parsed.issues).message);
      const made = await createPersonalToken(deps.registry, deps.tokenHasher, { userId: user.id, ...parsed.output }, principal);
      if (!made.ok) return refuse(400, made.error.message);
      return accountPage(c, deps, principal, { status: 201, secret: made.value.secret });
    },
  }),
  defineRoute({
    method: 'post', path: '/account/tokens/:id/revoke', tag: 'Console', permission: 'OWN_ACCOUNT', authentication: 'session', page: true,
    summary: 'Revoke one of the person\'s own personal access tokens', params: TokenIdParamsSchema, success: REDIRECT,
    handle: async ({ c, deps, params, principal }) => {
      const revoked = await revokeToken(deps.registry, { id: params.id, userId: userOf(principal).id }, principal);
      if (!revoked.ok) return accountPage(c, deps, principal, { status: 404, refused: { form: 'revoke', field: null, message: revoked.error.message, values: {} } });
      return c.redirect('/account?done=revoked', 303);
    },
  }),
  defineRoute({
    method: 'post', path: '/account/password', tag: 'Console', permission: 'OWN_ACCOUNT', authentication: 'session', page: true,
    summary: 'Change the person\'s own password (the current one first, when they have one)', success: REDIRECT,
    handle: async ({ c, deps, principal }) => {
      const user = userOf(principal);
      const form = formOf(c);
      const refuse = (status: number, field: string | null, message: string) => accountPage(c, deps, principal, { status, refused: { form: 'password', field, message, values: {} } });
      const password = form['password'] ?? '';
      if (password !== (form['confirmPassword'] ?? '')) return refuse(400, 'confirmPassword', 'The two new passwords differ');
      // The current password is checked by the use case, within the sign-in limits (charged before scrypt).
      const changed = await attemptSignIn(c, deps, user.username ?? user.email ?? '', () => changeOwnPassword(deps.registry, { password, oldPassword: form['currentPassword'] ?? '' }, principal));
      if (!changed.ok && (changed.error.kind === 'TooManyRequests' || changed.error.kind === 'Unavailable')) return refuse(STATUS[changed.error.kind], 'currentPassword', changed.error.message);
      if (!changed.ok && changed.error.kind === 'AuthenticationRequired') return refuse(400, 'currentPassword', 'This is not your current password');
      if (!changed.ok) return refuse(400, 'password', changed.error.message.replace(/^"password": /, 'The password '));
      // The new password ended every session of the old one, this one too: a password session starts again.
      if (principal.kind === 'user' && principal.tokenName === 'session') await openSession(c, deps, { kind: 'password', user });
      return c.redirect('/account?done=password', 303);
    },
  }),
  defineRoute({
    method: 'post', path: '/account/sessions/end', tag: 'Console', permission: 'OWN_ACCOUNT', authentication: 'session', page: true,
    summary: 'Sign out everywhere: every console session of the person ends, this one included', success: { status: 303, description: 'To the sign-in page' },
    handle: async ({ c, deps, principal }) => {
      await endEverySessionOf(deps.registry, userOf(principal).id);
      clearSessionCookie(c, deps);
      return c.redirect('/login?signed-out', 303);
    },
  }),
];
