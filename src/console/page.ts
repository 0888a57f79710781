/**
 * A console page is a route record, declared as the API's are: method, path, permission, the path and query
 * schemas, and for a write its form (`forms/form.ts`), read and validated before the handler runs. The handler
 * is the API's: validated input → use case or query → a `Result` (or, for a page, the rendered `Response`). A
 * write that is done goes to `done`'s address (303); one that is refused, by the form's schema or by the use
 * case, shows the page again through `refused`, with the field-error map, at the error's status.
 *
 * @example
 * definePage({
 *   method: 'post', path: '/projects/:projectId/features', permission: 'CREATE_FEATURE', params: ProjectParamsSchema,
 *   summary: 'Create a flag', form: NewFlagForm,
 *   handle: ({ registry, params, form, principal }) => createFlag(registry, inputOf(params, form), principal),
 *   done: (flag, { params }) => flagUrl(params.projectId, flag.name),
 *   refused: (call, refusal) => tablePage(call.c, call.deps, call.project(), { newFlag: refusal }),
 * })
 */
import type { Context } from 'hono';
import type * as v from 'valibot';
import type { ProjectActor } from '../actors/actor-types.js';
import type { Registry } from '../actors/registry.js';
import type { Permission, Principal } from '../auth/permissions.js';
import type { IfMatch } from '../domain/commands.js';
import type { DomainError } from '../domain/errors.js';
import type { Result } from '../domain/result.js';
import { apiError, ApiError, type ErrorKind } from '../http/errors.js';
import { parseIfMatch } from '../http/answers/if-match.js';
import type { QuerySchema, RouteSpec } from '../http/route.js';
import type { ConsoleDeps, ConsoleEnv } from './console-deps.js';
import { refusalOf, type FormDraft, type FormValue, type PageForm, type Refusal } from './forms/form.js';

type Output<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

/** One page request, validated: the path, the query and the form passed their schemas; the caller may. */
export interface PageCall<P = unknown, Q = unknown, F extends PageForm | undefined = PageForm | undefined> {
  c: Context<ConsoleEnv>;
  params: P;
  query: Q;
  /** A write's form, as its schema answered it. */
  form: FormValue<F>;
  /** The form as sent, read (what a page shows again). */
  draft: FormDraft<F>;
  principal: Principal;
  /** The version of the flag the page showed (`ifMatch` of a `conditional` page's form), as `If-Match` is read. */
  ifMatch: IfMatch;
  registry: Registry;
  deps: ConsoleDeps;
  /** The project the path names (known to exist on project pages). */
  project(): ProjectActor;
}

/** What a page's handler answers: a rendered page (or redirect) of its own, or a write's result. */
export type PageAnswer<T> = Response | Result<T>;

/** A page record as declared. */
export interface PageSpec<
  P extends v.GenericSchema | undefined = v.GenericSchema | undefined,
  Q extends QuerySchema | undefined = QuerySchema | undefined,
  F extends PageForm | undefined = PageForm | undefined,
  T = unknown,
> {
  method: 'get' | 'post';
  path: string;
  summary: string;
  permission: Permission;
  /** As on an API record: the permission is checked where the segment or flag lives. */
  scope?: 'segment' | 'flag';
  /** `session` (the default): a signed-in person; `none`: open to anyone (sign-in, a one-time password link). */
  authentication?: 'session' | 'none';
  params?: P;
  query?: Q;
  /** A write's form: read once, validated; the handler gets its value as `call.form`. */
  form?: F;
  /** The form carries `ifMatch`, the version of the flag the page showed: the write is conditional on it. */
  conditional?: boolean;
  /** `import`: the form is bounded by `IMPORT_BODY_LIMIT` instead of `BODY_LIMIT` (an export file). */
  bodyLimit?: 'import';
  /** What it answers when all goes well (default: GET an HTML page, POST a redirect). */
  success?: { status: number; description: string };
  errors?: readonly ErrorKind[];
  handle(call: PageCall<Output<P>, Output<Q>, F>): PageAnswer<T> | Promise<PageAnswer<T>>;
  /** Where a write's success goes (303). */
  done?(value: T, call: PageCall<Output<P>, Output<Q>, F>): string;
  /** The page again with a refused form (its status set to the refusal's); `call.form` is undefined when the form's schema refused it. */
  refused?(call: Refused<PageCall<Output<P>, Output<Q>, F>>, refusal: Refusal<FormDraft<F>>): Response | Promise<Response>;
}

/** A call whose form may have been refused by its schema (`form` undefined then). */
export type Refused<C> = C extends { form: infer V } ? Omit<C, 'form'> & { form: V | undefined } : C;

/** A page record among the routes: the declaration, kept on the record for the console's steps. */
export type PageRecord = RouteSpec & { page: true; declared: PageSpec };

const PAGE = { status: 200, description: 'An HTML page' };
const REDIRECT = { status: 303, description: 'A redirect' };

/**
 * Declares a page: a route record of the console (tag `Console`, `page: true`), its types inferred from its
 * schemas. The router, the permission check and `docs/permissions.md` read it as any record; the console's
 * runner (`pipeline/console-runner.ts`) serves it.
 */
export function definePage<P extends v.GenericSchema | undefined, Q extends QuerySchema | undefined = undefined, F extends PageForm | undefined = undefined, T = unknown>(
  spec: PageSpec<P, Q, F, T>,
): RouteSpec {
  const record = {
    method: spec.method, path: spec.path, summary: spec.summary, tag: 'Console', permission: spec.permission, scope: spec.scope,
    authentication: spec.authentication ?? 'session', params: spec.params, query: spec.query, bodyLimit: spec.bodyLimit,
    page: true, success: spec.success ?? (spec.method === 'get' ? PAGE : REDIRECT), errors: spec.errors, handle: spec.handle, declared: spec,
  };
  return record as unknown as RouteSpec;
}

/** The declaration of a page record, or undefined for an API record. */
export const declaredPage = (route: RouteSpec): PageSpec | undefined => (route as Partial<PageRecord>).declared;

/**
 * The last step of a page, once its steps passed: the validated call to its handler. A form the schema refused
 * goes to `refused` (400) without running it; a result goes to `done` (303) or, refused, to `refused` at the
 * error's status; a `Response` is the answer.
 */
export async function answerPage(c: Context<ConsoleEnv>, spec: PageSpec, deps: ConsoleDeps): Promise<Response> {
  const read = c.get('form');
  const actor = c.get('actor');
  const call: PageCall = {
    c, params: spec.params ? c.req.valid('param' as never) : undefined, query: spec.query ? c.req.valid('query' as never) : undefined,
    form: read?.ok ? read.value : undefined, draft: read?.draft, principal: c.get('principal'),
    ifMatch: spec.conditional ? parseIfMatch(firstText(c.get('sent')?.['ifMatch'])) : undefined,
    registry: deps.registry, deps,
    project: () => {
      if (!actor) throw apiError('NotFoundError', 'This page names no project');
      return actor;
    },
  };
  const refuse = (error: DomainError): Response | Promise<Response> => {
    if (!spec.refused || !spec.form) throw new ApiError(error);
    const refusal = refusalOf(spec.form, error, read?.draft);
    c.status(refusal.status as 400);
    return spec.refused(call as never, refusal as Refusal<never>);
  };
  if (read && !read.ok) return refuse(read.error);
  const answer = await spec.handle(call as never);
  if (answer instanceof Response) return answer;
  if (!answer.ok) return refuse(answer.error);
  if (!spec.done) throw new Error(`${spec.method.toUpperCase()} ${spec.path}: a result without \`done\``);
  return c.redirect(spec.done(answer.value, call as never), 303);
}

const firstText = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined);
