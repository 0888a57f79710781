import { csrfStep } from '../console/csrf.js';
import { formBodySteps } from '../console/form-body.js';
import { pageHeaders } from '../console/page-headers.js';
import { authenticate } from '../middleware/authenticate.js';
import { authorize, refuseTokenWithoutPermission } from '../middleware/authorize.js';
import { bodySteps } from '../middleware/body.js';
import { freshReads, freshReadsFor } from '../middleware/fresh-reads.js';
import { validateSync } from '../middleware/validate.js';
import type { AppDeps, RouteSpec, Step } from '../route.js';

/**
 * The steps of one route, in order; each answers its own errors:
 * 1. authenticate (401; a page's missing session is a redirect to `/login`);
 * 2. refuse an API token without the route's permission (403), before anything of the request is read;
 * 3. validate path and query (400);
 * 4. on several nodes, a read of the admin API or a page catches up with the database (`fresh-reads.ts`); find
 *    the project and authorize (404, 503, 403);
 * 5. bound, read and validate the body (413, 415, 400): JSON, or a page's form;
 * 6. a page's state-changing request (and the sign-in): the CSRF checks (403, `src/http/console/csrf.ts`).
 * Then `handleRoute` runs the route: use case → `ETag` → view. A public route (`authentication: 'none'`) has no
 * caller to resolve or check: steps 1, 2 and 4 are left out. A page sets its headers (CSP) first.
 *
 * @example for (const step of pipelineOf(route, deps)) await step(c);
 */
export function pipelineOf(route: RouteSpec, deps: AppDeps): Step[] {
  const open = route.authentication === 'none';
  const steps: Step[] = route.page ? [pageHeaders] : [];
  if (!open) steps.push(authenticate(route, deps), refuseTokenWithoutPermission(route));
  if (route.params) steps.push(validateSync('param', route.params));
  if (route.query) steps.push(validateSync('query', route.query));
  if (freshReadsFor(route, deps)) steps.push(freshReads(deps));
  if (!open) steps.push(authorize(route, deps));
  const writes = route.method !== 'get';
  if (route.page && writes) steps.push(...formBodySteps(route.body, deps, route.bodyLimit === 'import' ? deps.config.importBodyLimit : deps.config.bodyLimit));
  else if (route.body) steps.push(...bodySteps(route, route.body, deps));
  const csrf = route.csrf ?? (route.page && writes ? (route.authentication === 'session' ? 'session' : 'pre-session') : undefined);
  if (csrf) steps.push(csrfStep(csrf, deps));
  return steps;
}
