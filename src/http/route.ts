import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type * as v from 'valibot';
import type { ProjectActor } from '../actors/actor-types.js';
import type { Registry } from '../actors/registry.js';
import type { Permission, Principal } from '../auth/permissions.js';
import type { TokenHasher } from '../auth/token-hasher.js';
import type { Config } from '../config.js';
import type { IfMatch } from '../domain/commands.js';
import type { Logger } from '../log.js';
import type { EvaluationQuery } from '../queries/sdk/evaluation.query.js';
import type { ClientDeltaQuery } from '../queries/sdk/client-delta.query.js';
import type { ClientFeaturesQuery } from '../queries/sdk/client-features.query.js';
import type { OfrepQuery } from '../queries/sdk/ofrep.query.js';
import type { StreamTickets } from '../auth/stream-tickets.js';
import type { HealthQuery } from '../queries/health.query.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { Result } from '../domain/result.js';
import type { SignInLimits } from '../auth/sign-in-limits.js';
import type { WindowBudget } from '../actors/window-budget.js';
import type { ClientStreams } from './streams/client-streams.js';
import type { DumpStreams } from './streams/dump-streams.js';
import type { ErrorKind } from './errors.js';
import type { GzipCache } from './answers/gzip.js';
import type { SummaryCache } from './answers/summary-cache.js';
import type { FeatureSearch } from '../queries/search/search.query.js';

/** What every route handler may use; built once per app, no globals. */
export interface AppDeps {
  registry: Registry;
  config: Config;
  log: Logger;
  summaries: SummaryCache;
  health: HealthQuery;
  gzip: GzipCache;
  /** Hashes token secrets under the installation's key (never a global: built from the config by the entry point). */
  tokenHasher: TokenHasher;
  /** Flags compiled per (project, environment) and state change, evaluated by the frontend API and the playground. */
  evaluation: EvaluationQuery;
  /** Streams `GET /api/admin/state`, a bounded number at once. */
  dumps: DumpStreams;
  /** `GET /api/client/features`: its answers cached per scope and query for the life of the app. */
  clientFeatures: ClientFeaturesQuery;
  /** `GET /api/client/delta` and the streams' messages, from the feed's history. */
  clientDelta: ClientDeltaQuery;
  /** The open `GET /api/client/streaming` connections, fed from the committed-event feed. */
  clientStreams: ClientStreams;
  /** OFREP evaluation (`/ofrep/v1/evaluate/flags`), over `evaluation`. */
  ofrep: OfrepQuery;
  /** Mints and checks the OFREP event stream's tickets (`/ofrep/v1/events?ticket=`). */
  streamTickets: StreamTickets;
  /** The Prometheus metrics of this app (`GET /internal-backstage/prometheus`). */
  metrics: ServiceMetrics;
  /** `GET /api/admin/search/features`: per-project sort orders, kept per state version. */
  search: FeatureSearch;
  /** What each address may still have checked by `POST /edge/validate` (token texts per minute), across every node. */
  edgeValidation: WindowBudget;
  /** Failed credential checks per account and address, and password checks at once (docs/limits.md "Sign-in"). */
  signInLimits: SignInLimits;
}

/** Values the pipeline's middleware set on a request's context. */
export interface AppEnv {
  Variables: {
    /** The `X-Request-Id` sent, or a new UUID (`observed`, src/http/pipeline/observed.ts). */
    requestId: string;
    principal: Principal;
    /** The project the path names, once found. */
    actor: ProjectActor | undefined;
  };
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Output<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

/** One request, validated: params, query and body passed their schemas, the caller is known and allowed. */
export interface Call<P, B, Q = unknown> {
  c: Context<AppEnv>;
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  /** `If-Match` of a conditional route, parsed (undefined elsewhere, or when absent or `*`). */
  ifMatch: IfMatch;
  registry: Registry;
  deps: AppDeps;
  /** The project the path names (known to exist on project routes). */
  project(): ProjectActor;
}

/** What a handler answers: a use case's result (the pipeline sends its view), or a response of its own. */
export type Answer<T> = Result<T> | Response;

/**
 * A route: method, path, what it needs and accepts, its handler and its view. The same record drives the
 * router, the middleware pipeline, the permission check, the OpenAPI document and `docs/permissions.md`.
 */
export interface RouteSpec<
  P extends v.GenericSchema | undefined = v.GenericSchema | undefined,
  B extends v.GenericSchema | undefined = v.GenericSchema | undefined,
  Q extends QuerySchema | undefined = QuerySchema | undefined,
  T = unknown,
> {
  method: Method;
  /** Hono syntax, `:name` for a parameter. */
  path: string;
  summary: string;
  tag: string;
  permission: Permission;
  /**
   * `segment`: the permission depends on the segment written, which the path does not name: `permission`
   * (`UPDATE_SEGMENT`) for a global segment, `UPDATE_PROJECT` in a project segment's project. The pipeline
   * refuses callers who hold neither anywhere; the use case checks the segment at hand.
   * `changes`: the body's changes each need the permission of the write they stand for, checked by the use
   * case once the body is read (`PERMISSION_OF_CHANGE`). `change-request-state`: the permission lets the
   * caller in; the state asked for then needs its own (`APPROVE_CHANGE_REQUEST` to approve or reject,
   * `APPLY_CHANGE_REQUEST` to apply or schedule, the author or an admin to send to review or cancel).
   */
  scope?: 'segment' | 'flag' | 'changes' | 'change-request-state';
  params?: P;
  /** The query string: an object schema of string values (its keys are documented as query parameters). */
  query?: Q;
  body?: B;
  /** `import`: the body is bounded by `IMPORT_BODY_LIMIT` instead of `BODY_LIMIT` (an export of thousands of flags). */
  bodyLimit?: 'import';
  /** The body may be absent (the membership routes accept an optional echo of their path). */
  bodyOptional?: boolean;
  /**
   * `msg-array`: this route answers every 400 as `[{msg}]` (the project-user routes, docs/admin-contract.md §4.17 to
   * §4.19 and docs/api-decisions.md "Errors"); `ofrep`: its 400s and 404s in OFREP's shape
   * (`{key?, errorCode, errorDetails}`); every other error keeps the standard body.
   */
  errorBody?: 'msg-array' | 'ofrep';
  /**
   * `ticket`: the caller is the API token named by a stream ticket in the query (`?ticket=`), not an
   * `Authorization` header (the OFREP event stream: EventSource sends no headers). See `src/auth/stream-tickets.ts`.
   * `none`: anyone may call it (permission `NONE`): no caller is resolved or checked, and `call.principal` is
   * not set; the route bounds what a call costs itself (`POST /edge/validate`).
   * `session`: the caller is the console session of the `flagpole-session` cookie: only the console's records
   * (`src/console/`) have it.
   */
  authentication?: 'ticket' | 'none' | 'session';
  /**
   * A console page (`definePage`, `src/console/page.ts`): the composition root serves it with the console's steps
   * (session, CSRF, form, page errors), and it is left out of the OpenAPI document.
   */
  page?: boolean;
  /**
   * The CSRF checks of a JSON route the console serves (the composition root hands it to the console's runner).
   * `pre-session`: those of the sign-in forms (origin and the pre-session token). `origin`: a JSON route scripts call too (`POST /auth/simple/login`): a request that names
   * where it comes from (`Origin`, else `Referer`) must name this site; one that names nothing (a script) passes.
   * No token is needed there: a browser on another site cannot send a JSON body without a preflight, which no
   * such route answers, and the JSON reader refuses every other content type (415).
   */
  csrf?: 'pre-session' | 'origin';
  /**
   * The write is conditional on the version of the flag the path names: the pipeline reads `If-Match` into
   * `call.ifMatch` (412 on a mismatch is the domain's). Any route whose result carries a version answers it
   * as `ETag`.
   */
  conditional?: boolean;
  /** Success status, what it answers, and the schema of its body (for the OpenAPI document). */
  success: { status: number; description: string; schema?: v.GenericSchema };
  /** Error kinds this route can answer besides the ones its pipeline answers on every route of its kind. */
  errors?: readonly ErrorKind[];
  /** Validated input → use case or query → result. A few lines. */
  handle(call: Call<Output<P>, Output<B>, Output<Q>>): Promise<Answer<T>> | Answer<T>;
  /** The body of a successful result; absent: no body. */
  view?(value: T, call: Call<Output<P>, Output<B>, Output<Q>>): unknown;
  /**
   * The route's fast path (`src/http/fast-paths/`, docs/performance.md): the same answer written on Node's
   * response before Hono sees the request, when served by `serveApp`. Under `app.request`, `handle` answers.
   */
  node?: NodeAnswer;
}

/**
 * One request a fast path may answer: the route's method and exact path (any query), from a caller holding the route's
 * permission. The server found the caller and the request id once, and notes the answer (log line, metric).
 */
export interface NodeCall {
  req: IncomingMessage;
  res: ServerResponse;
  /** Whether the URL has a query string (`req.url` holds it). */
  hasQuery: boolean;
  principal: Principal;
  /** The caller's well-formed `X-Request-Id`, or a new UUID: the answer carries it. */
  requestId: string;
  deps: AppDeps;
}

/**
 * A route's answer written on Node's response: the status of the whole answer it wrote, or `false`, having
 * written nothing, to leave the request to the route (which answers errors in their one shape).
 */
export type NodeAnswer = (call: NodeCall) => number | false;

/** A query schema: an object whose entries name the parameters. */
export type QuerySchema = v.GenericSchema & { readonly entries: v.ObjectEntries };

/** Declares a route with its types inferred from its schemas and its handler. */
export function defineRoute<P extends v.GenericSchema | undefined, B extends v.GenericSchema | undefined, Q extends QuerySchema | undefined = undefined, T = unknown>(
  spec: RouteSpec<P, B, Q, T>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/**
 * One step of a route's pipeline: it checks one thing and throws the `ApiError` that answers it, or sets
 * what the steps after it read (`c.set`, `c.req.addValidatedData`). Synchronous where it can be: a step
 * that returns nothing costs no promise.
 */
export type Step = (c: Context<AppEnv>) => void | Promise<unknown>;

/**
 * A use case's input: the path's params with the rest of what it needs, copied onto one new object rather than
 * spread into a literal. Hand-kept for speed: docs/performance.md "Use-case input without spreads".
 *
 * @example inputOf(params, { ifMatch, strategy: body }) // { projectId, featureName, environment, ifMatch, strategy }
 */
export function inputOf<A extends object, B extends object>(params: A, more: B): A & B;
export function inputOf<A extends object, B extends object, C extends object>(params: A, more: B, last: C): A & B & C;
export function inputOf(params: object, more: object, last?: object): object {
  // No rest parameter: no array per request. Object.assign skips an undefined `last`.
  return Object.assign({}, params, more, last);
}
