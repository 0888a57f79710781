/** @jsxImportSource hono/jsx */
/**
 * Signing in and out (README "Console"): the sign-in page with its two forms, their posts, sign-out, and `/`.
 * Each way in runs within the sign-in limits (`src/http/sign-in-limits.ts`); a wrong credential gets one generic message.
 */
import type { Context } from 'hono';
import { loginCsrfToken } from '../../auth/session-keys.js';
import { NextQuerySchema } from '../../schemas/console.schema.js';
import { checkPassword, checkToken, endSession } from '../../use-cases/sessions.use-cases.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { clearSessionCookie, ensureLoginNonce } from '../pipeline/cookies.js';
import { buttonForm } from '../forms/flag.forms.js';
import { LoginForm, TokenLoginForm } from '../forms/sign-in.forms.js';
import { definePage } from '../page.js';
import { renderPage, safeNext } from '../render.js';
import { attemptSignIn, openSession, sessionCallerOf } from '../pipeline/session.js';
import { LoginPage, type LoginPageProps } from '../views/login/login-page.js';

/** Whether the request comes with a live session (the sign-in page then sends the browser on). */
async function signedIn(c: Context<ConsoleEnv>, deps: ConsoleDeps): Promise<boolean> {
  if (deps.config.authType === 'none') return true;
  try {
    c.set('principal', await sessionCallerOf(c, deps));
    return true;
  } catch {
    return false;
  }
}

/** The sign-in page, with what a failed attempt says. */
function loginPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, props: Omit<LoginPageProps, 'csrf'>, status?: number): Response {
  const csrf = loginCsrfToken(deps.tokenHasher, ensureLoginNonce(c, deps));
  return renderPage(c, <LoginPage csrf={csrf} {...props} />, status);
}

export const loginPages = [
  definePage({
    method: 'get', path: '/login', permission: 'NONE', authentication: 'none', query: NextQuerySchema,
    summary: 'The sign-in page (a signed-in browser goes on to `next`)',
    handle: async ({ c, deps, query }) => {
      const next = safeNext(query.next);
      if (await signedIn(c, deps)) return c.redirect(next, 303);
      return loginPage(c, deps, { next, notice: c.req.query('signed-out') !== undefined ? 'You have signed out.' : undefined });
    },
  }),
  definePage({
    method: 'post', path: '/login', permission: 'NONE', authentication: 'none', form: LoginForm, summary: 'Sign in with username (or email) and password',
    handle: async ({ c, deps, form }) => {
      const result = await attemptSignIn(c, deps, form.username, () => checkPassword(deps.registry, form));
      if (!result.ok) return result;
      await openSession(c, deps, result.value);
      return c.redirect(safeNext(form.next), 303);
    },
    refused: ({ c, deps, draft }, refusal) => loginPage(c, deps, { next: safeNext(draft.next), username: draft.username, error: refusal.error.message }),
  }),
  definePage({
    method: 'post', path: '/login/token', permission: 'NONE', authentication: 'none', form: TokenLoginForm, summary: 'Sign in with an admin token or a personal access token',
    handle: async ({ c, deps, form }) => {
      const result = await attemptSignIn(c, deps, undefined, () => checkToken(deps.registry, deps.tokenHasher, form.token));
      if (!result.ok) return result;
      await openSession(c, deps, result.value);
      return c.redirect(safeNext(form.next), 303);
    },
    refused: ({ c, deps, draft }, refusal) => loginPage(c, deps, { next: safeNext(draft.next), tokenError: refusal.error.message }),
  }),
  definePage({
    method: 'post', path: '/logout', permission: 'NONE', form: buttonForm('logout'), summary: 'Sign out: the session ends on the server',
    handle: async ({ c, deps }) => {
      const session = c.get('session');
      if (session) await endSession(deps.registry, session.key);
      clearSessionCookie(c, deps);
      return c.redirect('/login?signed-out', 303);
    },
  }),
  definePage({
    method: 'get', path: '/', permission: 'READ', summary: 'The console: the project list', success: { status: 303, description: 'A redirect' },
    handle: ({ c }) => c.redirect('/projects', 303),
  }),
];
