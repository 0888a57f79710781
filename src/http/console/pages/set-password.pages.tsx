/** @jsxImportSource hono/jsx */
/**
 * A one-time password link (`/set-password#<secret>`), open to anyone who holds one: the landing page (the secret
 * stays in the fragment until our script posts it), the new-password form, and saving it, which ends the link and
 * signs the person in. The secret only ever travels in POST bodies: never in an address, a Referer or a log line.
 */
import type { Context } from 'hono';
import { loginCsrfToken } from '../../../auth/session-keys.js';
import { SetPasswordFormSchema, SetPasswordLinkSchema } from '../../../schemas/admin-pages.schema.js';
import { passwordLinkUser, usePasswordLink } from '../../../use-cases/password-links.use-cases.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { ensureLoginNonce } from '../cookies.js';
import { frameOf, renderPage } from '../render.js';
import { openSession } from '../sign-in.js';
import { LinkEnded, LinkLanding, NewPasswordForm, type NewPasswordProps } from '../views/users/set-password-page.js';

const PAGE = { status: 200, description: 'An HTML page' };

/** The forms' CSRF token, bound to the browser's pre-session cookie as the sign-in forms' is. */
const csrfOf = (c: Context<AppEnv>, deps: AppDeps) => loginCsrfToken(deps.tokenHasher, ensureLoginNonce(c, deps));

/** The page of a link that cannot be used: 410, it is gone for good. */
const ended = (c: Context<AppEnv>, deps: AppDeps, message: string) => renderPage(c, <LinkEnded frame={frameOf(c, deps)} message={message} />, 410);

function form(c: Context<AppEnv>, deps: AppDeps, status: number, props: Omit<NewPasswordProps, 'frame' | 'csrf'>): Response {
  return renderPage(c, <NewPasswordForm frame={frameOf(c, deps)} csrf={csrfOf(c, deps)} {...props} />, status);
}

export const setPasswordPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/set-password', tag: 'Console', permission: 'NONE', authentication: 'none', page: true,
    summary: 'The landing page of a one-time password link (its secret is in the fragment, read by the page\'s script)', success: PAGE,
    handle: ({ c, deps }) => renderPage(c, <LinkLanding frame={frameOf(c, deps)} csrf={csrfOf(c, deps)} />),
  }),
  defineRoute({
    method: 'post', path: '/set-password', tag: 'Console', permission: 'NONE', authentication: 'none', page: true,
    summary: 'Open a one-time password link: its new-password form, or the page of a link that expired or was used',
    body: SetPasswordLinkSchema, success: PAGE,
    handle: ({ c, deps, body }) => {
      const user = passwordLinkUser(deps.registry, deps.tokenHasher, body.secret);
      if (!user.ok) return ended(c, deps, user.error.message);
      return form(c, deps, 200, { secret: body.secret, username: user.value.username ?? user.value.email ?? `User ${user.value.id}` });
    },
  }),
  defineRoute({
    method: 'post', path: '/set-password/save', tag: 'Console', permission: 'NONE', authentication: 'none', page: true,
    summary: 'Set the password of a one-time link (the API\'s rules), end the link and sign in', body: SetPasswordFormSchema,
    success: { status: 303, description: 'Signed in, to the projects' },
    handle: async ({ c, deps, body }) => {
      const user = passwordLinkUser(deps.registry, deps.tokenHasher, body.secret);
      if (!user.ok) return ended(c, deps, user.error.message);
      const username = user.value.username ?? user.value.email ?? `User ${user.value.id}`;
      if (body.password !== body.confirmPassword) {
        return form(c, deps, 400, { secret: body.secret, username, error: { field: 'confirmPassword', message: 'The two passwords differ' } });
      }
      const used = await usePasswordLink(deps.registry, deps.tokenHasher, body);
      if (!used.ok) {
        if (used.error.kind === 'NotFoundError') return ended(c, deps, used.error.message);
        return form(c, deps, 400, { secret: body.secret, username, error: { field: 'password', message: used.error.message.replace(/^"password": /, 'The password ') } });
      }
      await openSession(c, deps, { kind: 'password', user: used.value });
      return c.redirect('/projects', 303);
    },
  }),
];
