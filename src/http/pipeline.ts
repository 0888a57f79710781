import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { StatusCode } from 'hono/utils/http-status';
import type * as v from 'valibot';
import { ApiError, apiError } from './errors.js';
import { etagOf, parseIfMatch } from './if-match.js';
import { authenticate } from './middleware/authenticate.js';
import { authorize } from './middleware/authorize.js';
import { jsonBody } from './middleware/json-body.js';
import { msgArrayErrors } from './middleware/msg-array.js';
import { ofrepErrors } from './middleware/ofrep-errors.js';
import { validate } from './middleware/validate.js';
import type { AppDeps, AppEnv, Call, RouteSpec } from './route.js';

/**
 * The middleware of one route, in order; each step answers its own errors:
 * 1. authenticate (401), 2. validate path and query (400), 3. find the project and authorize (404, 503, 403),
 * 4. bound, read and validate the body (413, 415, 400), 5. handle: use case → ETag → view.
 * Routes with `errorBody: 'msg-array'` get their 400s re-answered as `[{msg}]`; `ofrep` routes their 400s
 * and 404s in OFREP's error shape.
 */
export function pipelineOf(route: RouteSpec, deps: AppDeps): MiddlewareHandler<AppEnv>[] {
  const steps: MiddlewareHandler<AppEnv>[] = [];
  if (route.errorBody === 'msg-array') steps.push(msgArrayErrors());
  if (route.errorBody === 'ofrep') steps.push(ofrepErrors());
  steps.push(authenticate(route, deps));
  if (route.params) steps.push(validate('param', route.params));
  if (route.query) steps.push(validate('query', route.query));
  steps.push(authorize(route, deps));
  if (route.body) {
    const limit = deps.config.bodyLimit;
    const tooLarge = () => apiError('PayloadTooLarge', `The request body is larger than ${limit} bytes`);
    const limited = bodyLimit({ maxSize: limit, onError: () => { throw tooLarge(); } });
    steps.push(
      // A declared Content-Length (Node's parser holds the body to it) is checked here, without touching
      // `c.req.raw.body`: that would build a full WHATWG Request per write, a third of a small write's cost.
      // A chunked body goes through `hono/body-limit`, which counts it as it streams.
      (c, next) => {
        const declared = c.req.header('content-length');
        if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limited(c, next);
        if (Number(declared) > limit) throw tooLarge();
        return next();
      },
      jsonBody(route.bodyOptional ?? false, route.body, isObjectSchema(route.body), validate('json', route.body)),
    );
  }
  return steps;
}

/** Whether a body schema describes an object (an optional one included). */
function isObjectSchema(schema: v.GenericSchema): boolean {
  const inner = schema.type === 'optional' ? (schema as unknown as { wrapped: v.GenericSchema }).wrapped : schema;
  return 'entries' in inner;
}

/** Registers every route on `app` behind its pipeline. */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteSpec[], deps: AppDeps): void {
  for (const route of routes) {
    const handlers: MiddlewareHandler<AppEnv>[] = [...pipelineOf(route, deps), (c) => handle(c, route, deps)];
    app.on(route.method.toUpperCase(), route.path, ...(handlers as [MiddlewareHandler<AppEnv>]));
  }
}

/** Step 5: the validated call to the route's handler, and its answer (status, `ETag`, view). */
async function handle(c: Context<AppEnv>, route: RouteSpec, deps: AppDeps): Promise<Response> {
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
  if (answer.version !== undefined) c.header('ETag', etagOf(answer.version));
  const status = route.success.status as StatusCode;
  if (!route.view) return c.body(null, status);
  return c.json(route.view(answer.value as never, typed), status as 200);
}
