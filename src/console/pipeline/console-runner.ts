/**
 * How the console's records are served (the composition root picks this runner for them): a page runs the
 * console's steps in order, then its handler (`answerPage`), and answers its errors as pages; the console's JSON
 * sign-in (`POST /auth/simple/login`) runs the API's steps and then the sign-in forms' CSRF checks.
 *
 * A page's steps, each answering its own errors:
 * 1. its headers (CSP, no caching), set before anything can fail, and the console's parts on the context;
 * 2. a signed-in page: the session of its cookie (a missing one is a redirect to `/login`, `page-errors.tsx`),
 *    then, as on the API, an API token without the permission refused before anything is read;
 * 3. path and query validated (400); on several nodes, a page GET catches up with the database first
 *    (`fresh-reads.ts`: the page after a form's redirect shows the write, whichever node took it);
 * 4. a signed-in page: its project found and the permission checked there (404, 503, 403);
 * 5. a post: its form bounded (413), read once and validated (`form-body.ts`; a refusal is the page's to show);
 * 6. a post: the CSRF checks (403, `csrf.ts`).
 */
import type { Context } from 'hono';
import { authorize, refuseTokenWithoutPermission } from '../../http/middleware/authorize.js';
import { freshReads, freshReadsFor } from '../../http/middleware/fresh-reads.js';
import { validateSync } from '../../http/middleware/validate.js';
import { handleRoute } from '../../http/pipeline/handle-route.js';
import type { RouteRunner } from '../../http/pipeline/mount-routes.js';
import type { RouteSpec, Step } from '../../http/route.js';
import type { ConsoleDeps, ConsoleEnv, ConsoleStep } from '../console-deps.js';
import { answerPage, declaredPage, type PageSpec } from '../page.js';
import { csrfStep } from './csrf.js';
import { formBodySteps, formLimit } from './form-body.js';
import { pageErrorHook } from './page-errors.js';
import { pageStart } from './page-headers.js';
import { sessionStep } from './session.js';

/** Whether the console serves a record: a page, or a JSON route of its sign-in (`csrf`). */
export const servedByConsole = (route: RouteSpec): boolean => route.page === true || route.csrf !== undefined;

/** A console step among the API's (a page's context is the API's with more on it). */
const step = (s: ConsoleStep): Step => s as unknown as Step;

/** The steps of one page, in the order above. */
export function pageSteps(route: RouteSpec, page: PageSpec, deps: ConsoleDeps): Step[] {
  const signedIn = route.authentication === 'session';
  const writes = page.method !== 'get';
  const steps: Step[] = [step(pageStart(deps))];
  if (signedIn) steps.push(step(sessionStep(deps)), refuseTokenWithoutPermission(route));
  if (route.params) steps.push(validateSync('param', route.params));
  if (route.query) steps.push(validateSync('query', route.query));
  if (freshReadsFor(route, deps)) steps.push(freshReads(deps));
  if (signedIn) steps.push(authorize(route, deps));
  if (writes) steps.push(...formBodySteps(page.form, formLimit(deps, page.bodyLimit)).map(step), step(csrfStep(signedIn ? 'session' : 'pre-session', deps)));
  return steps;
}

/**
 * The console's runner, over the API's (`api`, for its JSON sign-in).
 *
 * @example const runnerOf = (route) => (servedByConsole(route) ? consoleRunner(consoleDeps, api)(route) : api(route));
 */
export function consoleRunner(deps: ConsoleDeps, api: RouteRunner): RouteRunner {
  return (route) => {
    const page = declaredPage(route);
    if (!page) {
      // Its handler is handed the console's parts (the sign-in limits).
      const runner = api(route);
      return { steps: [...runner.steps, step(csrfStep(route.csrf ?? 'pre-session', deps))], answer: (c) => handleRoute(c, route, deps), onError: runner.onError };
    }
    return { steps: pageSteps(route, page, deps), answer: (c) => answerPage(c as unknown as Context<ConsoleEnv>, page, deps), onError: pageErrorHook(deps) };
  };
}
