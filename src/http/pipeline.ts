import { randomUUID } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { StatusCode } from 'hono/utils/http-status';
import type * as v from 'valibot';
import { StorageError } from '../actors/storage-error.js';
import { requestLineWriter, type Logger } from '../log.js';
import type { ServiceMetrics } from '../queries/metrics.query.js';
import { ApiError, apiError, errorResponse, internalErrorResponse, STATUS } from './errors.js';
import { answerWith, flushNotedHeaders, JSON_HEADERS, setResponseHeader, type NodeBindings } from './answer.js';
import { etagOf, parseIfMatch } from './if-match.js';
import { authenticate } from './middleware/authenticate.js';
import { authorize } from './middleware/authorize.js';
import { jsonBody } from './middleware/json-body.js';
import { ofrepErrorAnswer } from './middleware/ofrep-errors.js';
import { validateBody, validateSync } from './middleware/validate.js';
import type { AppDeps, AppEnv, Call, RouteSpec, Step } from './route.js';

/** The `next` handed to a Hono middleware run as a step: the steps after it run after it returns. */
const NEXT = (): Promise<void> => Promise.resolve();

/**
 * A Hono middleware (`hono/body-limit`, `@hono/valibot-validator`) as a step. Each of them does its work
 * and calls `next` last, so running it to its end and then the next step is the same order as nesting.
 */
export function honoStep(middleware: MiddlewareHandler): Step {
  return async (c) => {
    const answered = await middleware(c, NEXT);
    // None of the middleware used answers by itself (their errors are thrown through the one hook).
    if (answered instanceof Response) throw apiError('ValidationError', 'The request was refused');
  };
}

/**
 * The steps of one route, in order; each answers its own errors:
 * 1. authenticate (401), 2. validate path and query (400), 3. find the project and authorize (404, 503, 403),
 * 4. bound, read and validate the body (413, 415, 400). Step 5, `handle`, runs the route: use case → ETag → view.
 */
export function pipelineOf(route: RouteSpec, deps: AppDeps): Step[] {
  const steps: Step[] = [authenticate(route, deps)];
  if (route.params) steps.push(validateSync('param', route.params));
  if (route.query) steps.push(validateSync('query', route.query));
  steps.push(authorize(route, deps));
  if (route.body) {
    const limit = route.bodyLimit === 'import' ? deps.config.importBodyLimit : deps.config.bodyLimit;
    const tooLarge = () => apiError('PayloadTooLarge', `The request body is larger than ${limit} bytes`);
    const limited = honoStep(bodyLimit({ maxSize: limit, onError: () => { throw tooLarge(); } }));
    steps.push(
      // A declared Content-Length (Node's parser holds the body to it) is checked here, without touching
      // `c.req.raw.body`: that would build a full WHATWG Request per write, a third of a small write's cost.
      // A chunked body goes through `hono/body-limit`, which counts it as it streams.
      (c) => {
        const declared = c.req.header('content-length');
        if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limited(c);
        if (Number(declared) > limit) throw tooLarge();
      },
      honoStep(jsonBody(route.bodyOptional ?? false, route.body, isObjectSchema(route.body), validateBody(route.body))),
    );
  }
  return steps;
}

/** Whether a body schema describes an object (an optional one included). */
function isObjectSchema(schema: v.GenericSchema): boolean {
  const inner = schema.type === 'optional' ? (schema as unknown as { wrapped: v.GenericSchema }).wrapped : schema;
  return 'entries' in inner;
}

/** Who takes note of every answer: the log (one line per request) and, when there are metrics, their histogram. */
export interface Observers {
  log: Logger;
  metrics?: ServiceMetrics | undefined;
}

/**
 * What every answer goes through, route or not: a request id (the caller's well-formed `X-Request-Id`, or a
 * new UUID: on the response and as the `id` of an error body), the error answer of anything thrown, and,
 * once it is answered, one request log line (method, route template, status, duration, request id) and one
 * observation in the request metrics.
 *
 * It wraps each handler rather than sitting in front of them as `app.use` middleware: Hono calls a route
 * with one handler directly, without composing a chain, and that chain was a fifth of a small read's cost.
 */
export function observed(observers: Observers, route: string | null, handler: (c: Context<AppEnv>) => Response | Promise<Response>, onError?: (c: Context<AppEnv>, error: unknown) => Response | undefined) {
  const { log, metrics } = observers;
  const line = requestLineWriter(log, route, true);
  return async (c: Context<AppEnv>): Promise<Response> => {
    const start = performance.now();
    const reqId = takeRequestId(c);
    let answer: Response;
    try {
      answer = await handler(c);
    } catch (error) {
      answer = onError?.(c, error) ?? errorAnswer(c, error, observers, route);
    }
    flushNotedHeaders(c);
    const ms = performance.now() - start;
    metrics?.observeRequest(route, c.req.method, answer.status, ms / 1000);
    line(reqId, c.req.method, answer.status, ms);
    return answer;
  };
}

/** A request id: the rules of `hono/request-id` (255 characters at most of `[A-Za-z0-9_=-]`, else a new UUID). */
const REQUEST_ID = /^[\w\-=]{1,255}$/;

/**
 * The request's id, noted on the context (`c.get('requestId')`) and set as `X-Request-Id` on the answer.
 *
 * This is `hono/request-id`'s contract without it: that middleware sets the header through `c.header`, which
 * makes every answer carry a WHATWG `Headers` that node-server must copy back (measured: 12 µs of a ~50 µs
 * read). Served by Node, the header goes straight onto Node's response, which merges it into the head.
 */
function takeRequestId(c: Context<AppEnv>): string {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  const id = requestIdOf(incoming ? incoming.headers['x-request-id'] : c.req.header('x-request-id'));
  c.set('requestId', id);
  setResponseHeader(c, 'X-Request-Id', id);
  return id;
}

/** The id of a request: the caller's `X-Request-Id` when well-formed, else a new UUID. */
export function requestIdOf(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** The answer to an error thrown by a step or a handler. */
export function errorAnswer(c: Context<AppEnv>, error: unknown, observers: Observers, route: string | null): Response {
  if (error instanceof ApiError) return errorResponse(c, error.error);
  if (error instanceof StorageError) return storageErrorResponse(c, error, observers, route);
  // A Hono middleware's own 4xx (none is expected: the steps answer their errors first) keeps its status class.
  if (error instanceof HTTPException && error.status < 500) return errorResponse(c, { kind: 'ValidationError', message: error.message.slice(0, 200) });
  return internalErrorResponse(c, error, observers.log, route);
}

/**
 * A write the disk refused or did not confirm in time: 503 `StorageUnavailable` with `Retry-After`, the cause
 * (which may name files) in the log only. Nothing of a `failed` or `stalled` write is recorded; a `timeout`
 * one may land later, and then it is in the state as on disk.
 */
function storageErrorResponse(c: Context<AppEnv>, error: StorageError, { log, metrics }: Observers, route: string | null): Response {
  metrics?.storageError(error.reason);
  log.warn({ reqId: c.get('requestId'), route, reason: error.reason, err: error.cause }, 'write refused: storage unavailable');
  setResponseHeader(c, 'Retry-After', '5');
  return errorResponse(c, { kind: 'StorageUnavailable', message: `Storage unavailable: ${error.message}. Reads still work; writes resume once the disk takes them again.` });
}

/**
 * The CORS headers of an answer to a browser (its preflight is answered by `hono/cors`): the allowed origin
 * (`*`, or the request's `Origin` when it is in the list, with `Vary: Origin`), and `ETag` exposed: what
 * `hono/cors` sets, set on Node's response. As middleware in front of the route, `hono/cors` touches the
 * answer before it exists, and Hono then rebuilds the route's answer to merge it: ~150 µs a request.
 */
export function corsStep(origins: readonly string[]): Step {
  const headersFor = corsHeaders(origins);
  return (c) => {
    for (const [name, value] of headersFor(c.req.header('origin'))) setResponseHeader(c, name, value);
  };
}

/** The CORS headers `corsStep` sets for a request's `Origin`, as pairs (the Node shortcuts set them too). */
export function corsHeaders(origins: readonly string[]): (origin: string | undefined) => [string, string][] {
  const any = origins.includes('*');
  const expose: [string, string] = ['Access-Control-Expose-Headers', 'ETag'];
  const vary: [string, string] = ['Vary', 'Origin'];
  return (origin) => {
    const allowed = any ? '*' : origin !== undefined && origins.includes(origin) ? origin : undefined;
    const headers: [string, string][] = allowed === undefined ? [expose] : [['Access-Control-Allow-Origin', allowed], expose];
    if (!any) headers.push(vary);
    return headers;
  };
}

/**
 * Registers every route on `app`: one handler each, running its steps and then `handle`. Routes `cors`
 * names answer browsers of other origins (`FRONTEND_CORS_ORIGINS`).
 */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteSpec[], deps: AppDeps, cors: (route: RouteSpec) => boolean = () => false): void {
  for (const route of routes) {
    const steps = pipelineOf(route, deps);
    if (cors(route)) steps.unshift(corsStep(deps.config.frontendCorsOrigins));
    // The project-user routes answer every 400 as `[{msg}]` (seed 4.17 to 4.19), the OFREP routes their 400s and
    // 404s in OFREP's shape; other errors keep the standard body.
    const onError = route.errorBody === 'msg-array'
      ? (c: Context<AppEnv>, error: unknown) => (error instanceof ApiError && STATUS[error.error.kind] === 400 ? c.json([{ msg: error.error.message }], 400) : undefined)
      : route.errorBody === 'ofrep' ? ofrepErrorAnswer : undefined;
    app.on(route.method.toUpperCase(), route.path, observed(deps, route.path, async (c) => {
      for (const step of steps) {
        const pending = step(c);
        if (pending) await pending;
      }
      return handle(c, route, deps);
    }, onError));
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
  const status = route.success.status as StatusCode;
  const body = route.view ? route.view(answer.value as never, typed) : undefined;
  if (answer.version !== undefined) setResponseHeader(c, 'ETag', etagOf(answer.version));
  if (!route.view) return answerWith(c, null, status);
  return answerWith(c, JSON.stringify(body), status, JSON_HEADERS);
}
