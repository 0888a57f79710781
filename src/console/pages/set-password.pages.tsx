/** @jsxImportSource hono/jsx */
/**
 * A one-time password link (`/set-password#<secret>`), open to anyone who holds one: the landing page (the secret
 * stays in the fragment until our script posts it), the new-password form, and saving it, which ends the link and
 * signs the person in. The secret only ever travels in POST bodies: never in an address, a Referer or a log line.
 */
import type { Context } from 'hono';
import { loginCsrfToken } from '../../auth/session-keys.js';
import { passwordLinkUser, usePasswordLink } from '../../use-cases/password-links.use-cases.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { ensureLoginNonce } from '../pipeline/cookies.js';
import { LinkForm, LinkPasswordForm } from '../forms/sign-in.forms.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { openSession } from '../pipeline/session.js';
import { LinkEnded, LinkLanding, NewPasswordForm, type NewPasswordProps } from '../views/users/set-password-page.js';

/** The forms' CSRF token, bound to the browser's pre-session cookie as the sign-in forms' is. */
const csrfOf = (c: Context<ConsoleEnv>, deps: ConsoleDeps) => loginCsrfToken(deps.tokenHasher, ensureLoginNonce(c, deps));

/** The page of a link that cannot be used: 410, it is gone for good. */
const ended = (c: Context<ConsoleEnv>, deps: ConsoleDeps, message: string) => renderPage(c, <LinkEnded message={message} />, 410);

function passwordForm(c: Context<ConsoleEnv>, deps: ConsoleDeps, props: Omit<NewPasswordProps, 'csrf'>): Response {
  return renderPage(c, <NewPasswordForm csrf={csrfOf(c, deps)} {...props} />);
}

/** Who a link is for, as they sign in. */
const usernameOf = (user: { id: number; username: string | null; email: string | null }) => user.username ?? user.email ?? `User ${user.id}`;

export const setPasswordPages = [
  definePage({
    method: 'get', path: '/set-password', permission: 'NONE', authentication: 'none',
    summary: 'The landing page of a one-time password link (its secret is in the fragment, read by the page\'s script)',
    handle: ({ c, deps }) => renderPage(c, <LinkLanding csrf={csrfOf(c, deps)} />),
  }),
  definePage({
    method: 'post', path: '/set-password', permission: 'NONE', authentication: 'none', form: LinkForm,
    summary: 'Open a one-time password link: its new-password form, or the page of a link that expired or was used', success: { status: 200, description: 'An HTML page' },
    handle: ({ c, deps, form }) => {
      const user = passwordLinkUser(deps.registry, deps.tokenHasher, form.secret);
      if (!user.ok) return ended(c, deps, user.error.message);
      return passwordForm(c, deps, { secret: form.secret, username: usernameOf(user.value) });
    },
  }),
  definePage({
    method: 'post', path: '/set-password/save', permission: 'NONE', authentication: 'none', form: LinkPasswordForm,
    summary: 'Set the password of a one-time link (the API\'s rules), end the link and sign in', success: { status: 303, description: 'Signed in, to the projects' },
    handle: async ({ c, deps, form }) => {
      const user = passwordLinkUser(deps.registry, deps.tokenHasher, form.secret);
      if (!user.ok) return ended(c, deps, user.error.message);
      if (form.password !== form.confirmPassword) return { ok: false, error: { kind: 'ValidationError', message: 'The two passwords differ', path: 'confirmPassword' } };
      const used = await usePasswordLink(deps.registry, deps.tokenHasher, form);
      if (!used.ok) return used.error.kind === 'NotFoundError' ? ended(c, deps, used.error.message) : used;
      await openSession(c, deps, { kind: 'password', user: used.value });
      return c.redirect('/projects', 303);
    },
    refused: ({ c, deps, draft }, refusal) => {
      const user = passwordLinkUser(deps.registry, deps.tokenHasher, draft.secret.trim());
      if (!user.ok) return ended(c, deps, user.error.message);
      return passwordForm(c, deps, { secret: draft.secret.trim(), username: usernameOf(user.value), error: refusal });
    },
  }),
];
