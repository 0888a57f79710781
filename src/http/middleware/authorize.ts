import type { MiddlewareHandler } from 'hono';
import { isAllowed, noAccessMessage } from '../../auth/permissions.js';
import { ApiError, apiError } from '../errors.js';
import type { AppDeps, AppEnv, RouteSpec } from '../route.js';

/**
 * After the path is validated: the project it names must exist (404, or 503 when it could not be recovered),
 * and the caller must hold the route's permission there (403 naming the permission and the environment).
 */
export function authorize(route: RouteSpec, deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
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
    if (!isAllowed(principal, route.permission, role)) {
      const environment = params.environment === '*' ? undefined : params.environment;
      const message = noAccessMessage(route.permission, environment);
      const why = route.permission === 'CLIENT_API'
        ? 'The client API takes client or admin API tokens, not personal tokens; '
        : principal.kind === 'client' ? 'Client tokens cannot use the admin API; ' : '';
      throw apiError('NoAccessError', `${why}${message}`);
    }
    await next();
  };
}
