import { isAllowed, mayWriteSomeSegment, noAccessMessage } from '../../auth/permissions.js';
import { projectOfFlag } from '../../queries/tags.query.js';
import { ApiError, apiError } from '../errors.js';
import type { AppDeps, RouteSpec, Step } from '../route.js';

/**
 * After the path is validated: the project it names must exist (404, or 503 when it could not be recovered),
 * and the caller must hold the route's permission there (403 naming the permission and the environment).
 * Flag routes without a project in their path (`scope: 'flag'`) are checked in the project holding the flag.
 * Segment routes (`scope: 'segment'`) let through callers who may write some segment; their use cases check
 * the segment at hand.
 */
export function authorize(route: RouteSpec, deps: AppDeps): Step {
  return (c) => {
    const params = (route.params ? c.req.valid('param' as never) : {}) as { projectId?: string; environment?: string; featureName?: string };
    let actor;
    let projectId = params.projectId;
    if (projectId === undefined && route.scope === 'flag' && params.featureName !== undefined) {
      const holder = projectOfFlag(deps.registry, params.featureName);
      if (!holder.ok) throw new ApiError(holder.error);
      projectId = holder.value;
    }
    if (projectId !== undefined) {
      const found = deps.registry.find(projectId);
      if (!found.ok) throw new ApiError(found.error);
      actor = found.value;
    }
    c.set('actor', actor);
    const principal = c.get('principal');
    const role = principal.kind === 'user' && actor ? actor.state.meta.members[String(principal.user.id)] : undefined;
    const allowed = route.scope === 'segment'
      ? mayWriteSomeSegment(principal, principal.kind === 'user' ? rolesOf(deps, principal.user.id) : [])
      : isAllowed(principal, route.permission, role);
    if (!allowed) {
      const environment = params.environment === '*' ? undefined : params.environment;
      const message = noAccessMessage(route.permission, environment);
      const why = route.permission === 'CLIENT_API'
        ? 'The client API takes client or admin API tokens, not personal tokens; '
        : principal.kind === 'client' ? 'Client tokens cannot use the admin API; ' : '';
      throw apiError('NoAccessError', `${why}${message}`);
    }
  };
}

/** A user's role in each project (undefined where none), read lazily. */
function* rolesOf(deps: AppDeps, userId: number): Iterable<number | undefined> {
  for (const id of deps.registry.projectIds()) yield deps.registry.project(id)?.state.meta.members[String(userId)];
}
