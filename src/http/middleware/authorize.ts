import { isAllowed, mayWriteSomeSegment, noAccessMessage } from '../../auth/permissions.js';
import { ApiError, apiError } from '../errors.js';
import type { Step } from '../pipeline.js';
import type { AppDeps, RouteSpec } from '../route.js';

/**
 * After the path is validated: the project it names must exist (404, or 503 when it could not be recovered),
 * and the caller must hold the route's permission there (403 naming the permission and the environment).
 * Segment routes (`scope: 'segment'`) let through callers who may write some segment; their use cases check
 * the segment at hand.
 */
export function authorize(route: RouteSpec, deps: AppDeps): Step {
  return (c) => {
    const params = (route.params ? c.req.valid('param' as never) : {}) as { projectId?: string; environment?: string };
    let actor;
    if (params.projectId !== undefined) {
      const found = deps.registry.find(params.projectId);
      if (!found.ok) throw new ApiError(found.error);
      actor = found.actor;
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
