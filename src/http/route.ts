import type { Context } from 'hono';
import * as v from 'valibot';
import type { Registry, ProjectActor } from '../actors/registry.js';
import type { Principal, Permission } from '../auth/permissions.js';
import type { Config } from '../config.js';
import type { ProjectCommand } from '../domain/commands.js';
import type { Decision } from '../domain/errors.js';
import type { ServiceCommand } from '../domain/service-state.js';
import type { GzipCache } from './gzip.js';
import type { SummaryCache } from './summary-cache.js';

/** What every route handler may use; built once per app, no globals. */
export interface AppDeps {
  registry: Registry;
  config: Config;
  summaries: SummaryCache;
  gzip: GzipCache;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Output<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

/** One request, validated: params and body passed their schemas, the caller is known and allowed. */
export interface Call<P, B, Q = unknown> {
  c: Context;
  params: P;
  /** The query string, validated (undefined on routes that take none). */
  query: Q;
  body: B;
  principal: Principal;
  /** The principal as recorded in the log. */
  by: string;
  deps: AppDeps;
  /** The project the path names (already known to exist on project routes). */
  project(): ProjectActor;
  /** Sends a command to the path's project and waits until it is durable; a refusal throws its ApiError. */
  run<R = unknown>(command: ProjectCommand): Promise<R>;
  /** Sends a command to the service actor, likewise. */
  runService<R = unknown>(command: ServiceCommand): Promise<R>;
  /** Any decision, unwrapped: its reply, or its error thrown. */
  unwrap<R>(decision: Decision<unknown, unknown>): R;
}

/**
 * A route: method, path, what it needs and accepts, and its handler. The same record drives the router,
 * the permission check and the OpenAPI document, so they cannot disagree.
 */
export interface RouteSpec<
  P extends v.GenericSchema | undefined = v.GenericSchema | undefined,
  B extends v.GenericSchema | undefined = v.GenericSchema | undefined,
  Q extends QuerySchema | undefined = QuerySchema | undefined,
> {
  method: Method;
  /** Hono syntax, `:name` for a parameter. */
  path: string;
  summary: string;
  tag: string;
  permission: Permission;
  params?: P;
  /** The query string: an object schema of string values (its keys are documented as query parameters). */
  query?: Q;
  body?: B;
  /** The body may be absent (the membership routes accept an optional echo of their path). */
  bodyOptional?: boolean;
  /**
   * `msg-array`: this route answers every 400 as `[{msg}]` (the project-user routes, seed 4.17 to 4.19 and
   * API-DECISIONS "Errors"); every other error keeps the standard body.
   */
  errorBody?: 'msg-array';
  /** Success status and what it answers, for the OpenAPI document. */
  success: { status: number; description: string };
  /** Error kinds this route can answer besides the authentication and validation ones. */
  errors?: string[];
  handle(call: Call<Output<P>, Output<B>, Output<Q>>): Promise<Response> | Response;
}

/** A query schema: an object whose entries name the parameters. */
export type QuerySchema = v.GenericSchema & { readonly entries: v.ObjectEntries };

/** Declares a route with its types inferred from its schemas. */
export function defineRoute<P extends v.GenericSchema | undefined, B extends v.GenericSchema | undefined, Q extends QuerySchema | undefined = undefined>(
  spec: RouteSpec<P, B, Q>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}
