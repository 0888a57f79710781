/** @jsxImportSource hono/jsx */
/**
 * A page route's errors as pages: a missing or ended session is a redirect to the sign-in page (back here
 * afterwards), a refusal a clear "You may not" page, an unknown address a "not found" page; every other
 * expected error a page with the API's message. Unexpected errors keep the one 500 answer (logged).
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError, STATUS } from '../errors.js';
import type { ErrorHook } from '../pipeline/error-hook.js';
import type { AppDeps, AppEnv } from '../route.js';
import { clearSessionCookie, SESSION_COOKIE } from './cookies.js';
import { Layout } from './layout.js';
import { setPageHeaders } from './page-headers.js';
import { frameOf, renderPage } from './render.js';

/** Heading and lead of an error page, by status. */
function wording(status: number, method: string): { title: string; lead: string } {
  if (status === 403) return { title: method === 'GET' ? 'You may not open this page' : 'You may not do this', lead: 'Your roles do not allow it. Ask an Admin or the project\'s Owner if you need access.' };
  if (status === 404) return { title: 'Page not found', lead: 'There is nothing at this address. It may have been deleted or renamed.' };
  if (status === 429) return { title: 'Too many attempts', lead: 'Wait a moment before you try again.' };
  if (status === 503) return { title: 'Temporarily unavailable', lead: 'The service cannot do this right now. Try again shortly.' };
  return { title: 'This could not be done', lead: 'The request was refused.' };
}

/** An error page with its status. */
export function errorPage(c: Context<AppEnv>, deps: AppDeps, status: number, message: string): Response {
  setPageHeaders(c);
  const { title, lead } = wording(status, c.req.method);
  return renderPage(c, (
    <Layout title={title} {...frameOf(c, deps)}>
      <section class="error-page" aria-labelledby="error-title">
        <p class="error-code">Error {status}</p>
        <h1 id="error-title">{title}</h1>
        <p class="lead">{lead}</p>
        <p class="error-message">{message}</p>
        <p><a class="button" href="/projects">Go to projects</a></p>
      </section>
    </Layout>
  ), status);
}

/** Where a page request without a session is sent: the sign-in page, back to this page (a GET) afterwards. */
export function signInRedirect(c: Context<AppEnv>, deps: AppDeps): Response {
  if (getCookie(c, SESSION_COOKIE) !== undefined) clearSessionCookie(c, deps);
  const url = new URL(c.req.url);
  // An htmx request (a switch) would follow a redirect and swap the sign-in page into a row: the browser goes instead.
  const htmxPage = c.req.header('hx-request') === 'true' ? c.req.header('hx-current-url') : undefined;
  if (htmxPage !== undefined) {
    // `HX-Current-URL` is whatever the client sent: one that is no URL sends the browser to the sign-in page alone.
    const page = URL.canParse(htmxPage, url.href) ? new URL(htmxPage, url) : undefined;
    c.header('HX-Redirect', page?.origin === url.origin ? `/login?next=${encodeURIComponent(`${page.pathname}${page.search}`)}` : '/login');
    return c.body(null, 204);
  }
  const back = `${url.pathname}${url.search}`;
  const target = c.req.method === 'GET' && back !== '/' && back !== '/projects' ? `/login?next=${encodeURIComponent(back)}` : '/login';
  return c.redirect(target, 303);
}

/** The error hook of every page route. */
export function pageErrorHook(deps: AppDeps): ErrorHook {
  return (c, error) => {
    if (!(error instanceof ApiError)) return undefined;
    if (error.error.kind === 'AuthenticationRequired') return signInRedirect(c, deps);
    // htmx does not swap an error page into a row: the page reloads and shows what the server holds.
    if (c.req.header('hx-request') === 'true') c.header('HX-Refresh', 'true');
    return errorPage(c, deps, STATUS[error.error.kind], error.error.message);
  };
}
