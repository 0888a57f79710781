/** @jsxImportSource hono/jsx */
/**
 * Signing in and out (README "Console"): the sign-in page with its two forms, their posts, sign-out, and `/`.
 * Each way in is limited per username and per address (`sign-in.ts`); a wrong credential gets one generic message.
 */
import type { Context } from 'hono';
import { loginCsrfToken } from '../../../auth/session-keys.js';
import { LoginFormSchema, NextQuerySchema, TokenFormSchema } from '../../../schemas/console.schema.js';
import { checkPassword, checkToken, endSession } from '../../../use-cases/sessions.use-cases.js';
import { sessionCallerOf } from '../../middleware/session-caller.js';
import { STATUS, type ErrorKind } from '../../errors.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { clearSessionCookie, ensureLoginNonce } from '../cookies.js';
import { frameOf, renderPage, safeNext } from '../render.js';
import { attemptSignIn, openSession } from '../sign-in.js';
import { LoginPage, type LoginPageProps } from '../views/login/login-page.js';

const PAGE = { status: 200, description: 'An HTML page' };
const REDIRECT = { status: 303, description: 'A redirect' };

/** Whether the request comes with a live session (the sign-in page then sends the browser on). */
async function signedIn(c: Context<AppEnv>, deps: AppDeps): Promise<boolean> {
  if (deps.config.authType === 'none') return true;
  try {
    c.set('principal', await sessionCallerOf(c, deps));
    return true;
  } catch {
    return false;
  }
}

/** The sign-in page, with what a failed attempt says. */
function loginPage(c: Context<AppEnv>, deps: AppDeps, status: number, props: Omit<LoginPageProps, 'frame' | 'csrf'>): Response {
  const csrf = loginCsrfToken(deps.tokenHasher, ensureLoginNonce(c, deps));
  return renderPage(c, <LoginPage frame={frameOf(c, deps)} csrf={csrf} {...props} />, status);
}

/** The status of a failed sign-in page: 401 for wrong credentials, else its own (429 when limited, 503 when busy). */
const failedStatus = (kind: ErrorKind) => (kind === 'AuthenticationRequired' ? 401 : STATUS[kind]);

export const loginPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/login', tag: 'Console', permission: 'NONE', authentication: 'none', page: true,
    summary: 'The sign-in page (a signed-in browser goes on to `next`)', query: NextQuerySchema, success: PAGE,
    handle: async ({ c, deps, query }) => {
      const next = safeNext(query.next);
      if (await signedIn(c, deps)) return c.redirect(next, 303);
      return loginPage(c, deps, 200, { next, notice: c.req.query('signed-out') !== undefined ? 'You have signed out.' : undefined });
    },
  }),
  defineRoute({
    method: 'post', path: '/login', tag: 'Console', permission: 'NONE', authentication: 'none', page: true,
    summary: 'Sign in with username (or email) and password', body: LoginFormSchema, success: REDIRECT,
    handle: async ({ c, deps, body }) => {
      const next = safeNext(body.next);
      const result = await attemptSignIn(c, deps, body.username, () => checkPassword(deps.registry, body));
      if (!result.ok) return loginPage(c, deps, failedStatus(result.error.kind), { next, username: body.username, error: result.error.message });
      await openSession(c, deps, result.value);
      return c.redirect(next, 303);
    },
  }),
  defineRoute({
    method: 'post', path: '/login/token', tag: 'Console', permission: 'NONE', authentication: 'none', page: true,
    summary: 'Sign in with an admin token or a personal access token', body: TokenFormSchema, success: REDIRECT,
    handle: async ({ c, deps, body }) => {
      const next = safeNext(body.next);
      const result = await attemptSignIn(c, deps, undefined, () => checkToken(deps.registry, deps.tokenHasher, body.token));
      if (!result.ok) return loginPage(c, deps, failedStatus(result.error.kind), { next, tokenError: result.error.message });
      await openSession(c, deps, result.value);
      return c.redirect(next, 303);
    },
  }),
  defineRoute({
    method: 'post', path: '/logout', tag: 'Console', permission: 'NONE', authentication: 'session', page: true,
    summary: 'Sign out: the session ends on the server', success: REDIRECT,
    handle: async ({ c, deps }) => {
      const session = c.get('session');
      if (session) await endSession(deps.registry, session.key);
      clearSessionCookie(c, deps);
      return c.redirect('/login?signed-out', 303);
    },
  }),
  defineRoute({
    method: 'get', path: '/', tag: 'Console', permission: 'READ', authentication: 'session', page: true,
    summary: 'The console: the project list', success: REDIRECT,
    handle: ({ c }) => c.redirect('/projects', 303),
  }),
];
