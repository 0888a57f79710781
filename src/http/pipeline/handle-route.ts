import type { Context } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import { answerWith, JSON_HEADERS, setResponseHeader } from '../answers/answer.js';
import { ApiError, apiError } from '../errors.js';
import { etagOf, parseIfMatch } from '../answers/if-match.js';
import type { AppDeps, AppEnv, Call, RouteSpec } from '../route.js';

/**
 * The last step of a route, once its pipeline passed: the validated call to its handler (with `If-Match`
 * parsed into `call.ifMatch` when the route is `conditional`), and its answer: the handler's own `Response`,
 * or the success status with the result's version as `ETag` and the view as the body. A failed result is
 * thrown as its `ApiError`.
 *
 * @example return handleRoute(c, route, deps);
 */
export async function handleRoute(c: Context<AppEnv>, route: RouteSpec, deps: AppDeps): Promise<Response> {
  const valid = (target: 'param' | 'query' | 'json') => c.req.valid(target as never) as unknown;
  const actor = c.get('actor');
  const call: Call<unknown, unknown, unknown> = {
    c,
    params: route.params ? valid('param') : undefined,
    query: route.query ? valid('query') : undefined,
    body: route.body ? valid('json') : undefined,
    principal: c.get('principal'),
    ifMatch: route.conditional ? parseIfMatch(c.req.header('if-match')) : undefined,
    registry: deps.registry,
    deps,
    project: () => {
      if (!actor) throw apiError('NotFoundError', 'This route names no project');
      return actor;
    },
  };
  const typed = call as Call<never, never, never>;
  const answer = await route.handle(typed);
  if (answer instanceof Response) return answer;
  if (!answer.ok) throw new ApiError(answer.error);
  const status = route.success.status as StatusCode;
  const body = route.view ? route.view(answer.value as never, typed) : undefined;
  if (answer.version !== undefined) setResponseHeader(c, 'ETag', etagOf(answer.version));
  if (!route.view) return answerWith(c, null, status);
  return answerWith(c, JSON.stringify(body), status, JSON_HEADERS);
}
