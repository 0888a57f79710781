import type { Context, Hono } from 'hono';
import type { ProjectActor } from '../actors/registry.js';
import { isAllowed, noAccessMessage, principalLabel, type Principal } from '../auth/permissions.js';
import type { Decision } from '../domain/errors.js';
import { authenticate } from './authenticate.js';
import { readJsonBody, validate } from './body.js';
import { ApiError, apiError, STATUS } from './errors.js';
import type { AppDeps, Call, RouteSpec } from './route.js';

/** Unknown project: the same 404 on every route. */
export function projectNotFound(id: string): ApiError {
  return apiError('NotFoundError', `Could not find project "${id}"`);
}

function unwrap<R>(decision: Decision<unknown, unknown>): R {
  if (!decision.ok) throw new ApiError(decision.error);
  return decision.reply as R;
}

/**
 * Registers `routes` on `app`, each behind the same numbered pipeline:
 * 1. authenticate (401), 2. validate path and query parameters (400), 3. find the project (404, or 503 when damaged),
 * 4. authorize (403), 5. read and validate the body (413, 415, 400), 6. handle.
 * Routes with `errorBody: 'msg-array'` answer their 400s as `[{msg}]`.
 */
export function mountRoutes(app: Hono, routes: RouteSpec[], deps: AppDeps): void {
  for (const route of routes) {
    app.on(route.method.toUpperCase(), route.path, async (c: Context) => {
      if (route.errorBody !== 'msg-array') return handle(c, route, deps);
      try {
        return await handle(c, route, deps);
      } catch (error) {
        if (error instanceof ApiError && STATUS[error.error.kind] === 400) throw apiError('MembershipError', error.error.message);
        throw error;
      }
    });
  }
}

/** The numbered pipeline of one request to `route`. */
async function handle(c: Context, route: RouteSpec, deps: AppDeps): Promise<Response> {
  const { registry, config } = deps;
  // 1.
  const principal: Principal = authenticate(c.req.header('authorization'), registry.service.state, config.authType);
  // 2.
  const params = route.params ? validate(route.params, c.req.param()) : undefined;
  const query = route.query ? validate(route.query, c.req.query()) : undefined;
  const projectId = (params as { projectId?: string } | undefined)?.projectId;
  const environment = (params as { environment?: string } | undefined)?.environment;
  // 3.
  let actor: ProjectActor | undefined;
  if (projectId !== undefined) {
    actor = registry.project(projectId);
    const damaged = registry.unavailable.get(projectId);
    if (damaged) throw apiError('Unavailable', `Project "${projectId}" could not be recovered from its log (${damaged.message}); it is not served until the data is repaired`);
    if (!actor) throw projectNotFound(projectId);
  }
  // 4.
  const role = principal.kind === 'user' && actor ? actor.state.meta.members[String(principal.user.id)] : undefined;
  if (!isAllowed(principal, route.permission, role)) {
    const message = principal.kind === 'client'
      ? `Client tokens cannot use the admin API; ${noAccessMessage(route.permission, environment === '*' ? undefined : environment)}`
      : noAccessMessage(route.permission, environment === '*' ? undefined : environment);
    throw apiError('NoAccessError', message);
  }
  // 5.
  const body = route.body ? await readBody(c, route, config.bodyLimit) : undefined;
  // 6.
  const by = principalLabel(principal);
  const call: Call<unknown, unknown, unknown> = {
    c, params, query, body, principal, by, deps,
    project: () => {
      if (!actor) throw apiError('NotFoundError', 'This route names no project');
      return actor;
    },
    run: async <R>(command: Parameters<ProjectActor['send']>[0]) => {
      if (!actor) throw apiError('NotFoundError', 'This route names no project');
      return unwrap<R>(await actor.send(command, by));
    },
    runService: async <R>(command: Parameters<typeof registry.service.send>[0]) => unwrap<R>(await registry.service.send(command, by)),
    unwrap,
  };
  return route.handle(call as Call<never, never, never>);
}

async function readBody(c: Context, route: RouteSpec, limit: number): Promise<unknown> {
  const raw = await readJsonBody(c, route.bodyOptional ?? false, limit);
  if (raw === undefined) return undefined;
  return validate(route.body!, raw);
}
