import type { Context } from 'hono';
import * as v from 'valibot';
import type { ProjectActor } from '../../actors/actor-types.js';
import { ok, type Result } from '../../domain/result.js';
import { isAllowed, mayWriteSomeSegment, noAccessMessage, type Principal } from '../../auth/permissions.js';
import { projectOfFlag } from '../../queries/tags.query.js';
import { ApiError, apiError } from '../errors.js';
import type { AppDeps, AppEnv, RouteSpec, Step } from '../route.js';

/**
 * Step 2 of every route, right after `authenticate`: an API token (admin, client, frontend) holds the same
 * permissions in every project, so whether it may use the route is known before the request is read. One
 * that may not is refused (403) here, before path validation and before any project or flag is looked up,
 * so its answer is the same whatever the path names and whatever exists. Personal tokens go on: their
 * permission depends on their role in the project the path names (`authorize`).
 */
export function refuseTokenWithoutPermission(route: RouteSpec): Step {
  const environmentSchema = (route.params as { entries?: Record<string, v.GenericSchema> } | undefined)?.entries?.['environment'];
  return (c) => {
    const principal = c.get('principal');
    if (principal.kind === 'user' || isAllowed(principal, route.permission, undefined)) return;
    // The 403 names the environment, as `authorize`'s does, only when the path's text is a well-formed name:
    // the answer may echo the request, never tell what exists.
    const environment = environmentSchema ? c.req.param('environment') : undefined;
    throw refusal(route, principal, environment !== undefined && environment !== '*' && v.is(environmentSchema!, environment) ? environment : undefined);
  };
}

/** The path parameters that name where a route acts. */
type PathParams = { projectId?: string; environment?: string; featureName?: string };

/**
 * After the path is validated: the project it names must exist (404, or 503 when it could not be recovered),
 * and the caller must hold the route's permission there (403 naming the permission and the environment).
 * Flag routes without a project in their path (`scope: 'flag'`) are checked in the project holding the flag.
 * Segment routes (`scope: 'segment'`) let through callers who may write some segment; their use cases check
 * the segment at hand. On a store several nodes share, a project or flag this node does not know is looked
 * for again once the node has caught up with the database.
 */
export function authorize(route: RouteSpec, deps: AppDeps): Step {
  return (c) => {
    const params = (route.params ? c.req.valid('param' as never) : {}) as PathParams;
    const found = projectOf(route, deps, params);
    // Several nodes: a project or flag made a moment ago on another node (a load balancer sent the next request
    // here) is learnt by catching up with the database once, before a 404 is answered.
    if (!found.ok && found.error.kind === 'NotFoundError' && deps.registry.shared) {
      return deps.registry.freshen(deps.config.nodes.catchUpWaitMs).then(() => allow(c, route, deps, params, projectOf(route, deps, params)));
    }
    allow(c, route, deps, params, found);
  };
}

/** The actor of the project the path names (or that holds the flag it names); undefined when it names none. */
function projectOf(route: RouteSpec, deps: AppDeps, params: PathParams): Result<ProjectActor | undefined> {
  let projectId = params.projectId;
  if (projectId === undefined && route.scope === 'flag' && params.featureName !== undefined) {
    const holder = projectOfFlag(deps.registry, params.featureName);
    if (!holder.ok) return holder;
    projectId = holder.value;
  }
  return projectId === undefined ? ok(undefined) : deps.registry.find(projectId);
}

/** Sets the project's actor for the route and checks the caller's permission there (404, 503 or 403 thrown). */
function allow(c: Context<AppEnv>, route: RouteSpec, deps: AppDeps, params: PathParams, found: Result<ProjectActor | undefined>): void {
  if (!found.ok) throw new ApiError(found.error);
  const actor = found.value;
  c.set('actor', actor);
  const principal = c.get('principal');
  const role = principal.kind === 'user' && actor ? actor.state.meta.members[String(principal.user.id)] : undefined;
  const allowed = route.scope === 'segment'
    ? mayWriteSomeSegment(principal, principal.kind === 'user' ? rolesOf(deps, principal.user.id) : [])
    : isAllowed(principal, route.permission, role);
  if (!allowed) throw refusal(route, principal, params.environment === '*' ? undefined : params.environment);
}

/** The 403 of a caller without the route's permission; `environment` (a validated path parameter) is named when given. */
function refusal(route: RouteSpec, principal: Principal, environment?: string): ApiError {
  const why = route.permission === 'CLIENT_API'
    ? 'The client API takes client or admin API tokens, not personal tokens; '
    : principal.kind === 'client' ? 'Client tokens cannot use the admin API; ' : '';
  return apiError('NoAccessError', `${why}${noAccessMessage(route.permission, environment)}`);
}

/** A user's role in each project (undefined where none), read lazily. */
function* rolesOf(deps: AppDeps, userId: number): Iterable<number | undefined> {
  for (const id of deps.registry.projectIds()) yield deps.registry.project(id)?.state.meta.members[String(userId)];
}
