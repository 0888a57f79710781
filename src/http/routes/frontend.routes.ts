/**
 * The frontend API (`/api/frontend`, what `unleash-proxy-client` reads) and the playground
 * (`POST /api/admin/playground`): flags evaluated on the server by the engine, over flags compiled once per
 * state change (`src/queries/evaluation.query.ts`).
 *
 * Frontend tokens read their projects in their environment; admin tokens may call it too (Unleash 6.10's
 * `assertExpectedTokenType` accepts both), reading every project in the environment the context names
 * (`default` when it names none). Client and personal tokens: 403.
 */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Principal } from '../../auth/permissions.js';
import { FrontendBodySchema, PlaygroundBodySchema, queryAsContext, readContext, type RequestContext } from '../../schemas/frontend.schema.js';
import { apiError } from '../errors.js';
import { answerWith, setResponseHeader } from '../answer.js';
import { frontendAnswer, frontendHeaders } from '../frontend-answer.js';
import { frontendOnNode } from '../fast-paths/frontend.fast-path.js';
import { aheadOfNode, caughtUpWith, revisionedMatch } from '../client-ahead.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../route.js';

/** The request's peer address, when the server knows it (not under `app.request` in tests). */
export function peerAddress(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * Answers the toggles with a weak `ETag`; `If-None-Match` naming the same answer: 304. A browser ahead of this
 * node (several nodes) waits for it a little, or is told "no change" rather than given an older answer.
 */
async function answerToggles(c: Context<AppEnv>, principal: Principal, context: RequestContext, deps: AppDeps): Promise<Response> {
  const header = c.req.header('if-none-match');
  let answer = frontendAnswer(deps, principal, context, peerAddress(c));
  let seen = revisionedMatch(header, answer.etag);
  if (seen !== 'match' && aheadOfNode(deps, seen)) {
    if (!(await caughtUpWith(deps, seen))) return answerWith(c, null, 304, frontendHeaders(header!.split(',')[0]!.trim()));
    answer = frontendAnswer(deps, principal, context, peerAddress(c));
    seen = revisionedMatch(header, answer.etag);
  }
  for (const [name, value] of Object.entries(frontendHeaders(answer.etag))) setResponseHeader(c, name, value);
  if (seen === 'match') return answerWith(c, null, 304);
  const { body } = answer;
  return answerWith(c, new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, { 'content-type': 'application/json' });
}

/** The query of `GET /api/frontend` as a context; a bad one is a 400. */
function contextFromQuery(c: Context<AppEnv>): RequestContext {
  const query = queryAsContext(c.req.queries());
  const read = query.ok ? readContext(query.input) : query;
  if (!read.ok) throw apiError('ValidationError', `"${read.path.replace(/^context\.?/, '')}": ${read.message}`);
  return read.context;
}

export const frontendRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/frontend', tag: 'Frontend API', permission: 'FRONTEND_API',
    summary: 'The flags enabled for the context in the query (`userId`, `sessionId`, `remoteAddress`, `properties[name]`, ...), each with its variant',
    success: { status: 200, description: '`{toggles: [{name, enabled, variant, impressionData}]}`; weak `ETag`, 304 on `If-None-Match`' },
    handle: ({ c, principal, deps }) => answerToggles(c, principal, contextFromQuery(c), deps),
    node: frontendOnNode,
  }),
  defineRoute({
    method: 'post', path: '/api/frontend', tag: 'Frontend API', permission: 'FRONTEND_API',
    summary: 'The flags enabled for the context in the body (`{context}`), each with its variant',
    body: FrontendBodySchema,
    success: { status: 200, description: '`{toggles: [{name, enabled, variant, impressionData}]}`; weak `ETag`, 304 on `If-None-Match`' },
    handle: ({ c, principal, body, deps }) =>
      answerToggles(c, principal, body.context ?? { properties: {} }, deps),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/playground', tag: 'Playground', permission: 'READ',
    summary: 'Every flag of the projects in the environment, explained for a context: per strategy, constraint and segment',
    body: PlaygroundBodySchema,
    success: { status: 200, description: "`{input, features}` in Unleash 6.10's shape" },
    handle: ({ c, body, deps }) => {
      const context = body.context;
      const features = deps.evaluation.playground({ projects: body.projects, environment: body.environment }, context).map((feature) => ({
        ...feature,
        strategies: {
          ...feature.strategies,
          data: feature.strategies.data.map((strategy) => ({
            ...strategy,
            links: { edit: `/projects/${feature.projectId}/features/${feature.name}/strategies/edit?environmentId=${body.environment}&strategyId=${strategy.id}` },
          })),
        },
      }));
      return c.json({ input: { environment: body.environment, projects: body.projects, context: { ...withoutProperties(context), properties: { ...context.properties } } }, features });
    },
  }),
];

const withoutProperties = ({ properties: _properties, ...rest }: RequestContext) => rest;
