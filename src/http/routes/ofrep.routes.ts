/**
 * The OpenFeature Remote Evaluation Protocol (docs/client-contract.md "OpenFeature (OFREP)"): any OpenFeature SDK reads
 * flagpole through the generic OFREP providers. Single evaluation (client tokens, for server-side providers),
 * bulk evaluation (client and frontend tokens, `ETag` / `If-None-Match`), and the bulk answer's change stream,
 * reached with a stream ticket since EventSource sends no headers (docs/architecture.md "OFREP stream tickets").
 * Evaluated by the frontend API's compiled flags and engine (`OfrepQuery` over `EvaluationQuery`).
 */
import type { Context } from 'hono';
import { parseRevision } from '../../queries/client-delta.query.js';
import { weakEtagOf } from '../../queries/evaluation.query.js';
import type { RequestContext } from '../../schemas/frontend.schema.js';
import { OfrepBodySchema, OfrepBulkQuerySchema, OfrepEventsQuerySchema, OfrepFlagParamsSchema, ofrepContext } from '../../schemas/ofrep.schema.js';
import { aheadOfNode, caughtUpWith, presentedRevision, revisionedEtag, revisionedMatch } from '../client-ahead.js';
import type { Closable } from '../client-stream-sinks.js';
import { apiError } from '../errors.js';
import { OFREP_ERROR_CODE } from '../middleware/ofrep-errors.js';
import { eventStreamsOf, ofrepScopeOf } from '../ofrep-scope.js';
import { defineRoute, type AppEnv, type RouteSpec } from '../route.js';
import { peerAddress } from './frontend.routes.js';

/** The body's context as the engine reads it, with the connection's address when it names none; a bad one: 400 `INVALID_CONTEXT`. */
function contextOf(c: Context<AppEnv>, body: { context?: unknown } | undefined): RequestContext {
  const read = ofrepContext(body?.context);
  if (!read.ok) {
    c.set(OFREP_ERROR_CODE as never, 'INVALID_CONTEXT' as never);
    throw apiError('ValidationError', read.message);
  }
  const context = read.context;
  if (context.remoteAddress === undefined) {
    const address = peerAddress(c);
    if (address !== undefined) context.remoteAddress = address;
  }
  return context;
}

const OFREP = 'OpenFeature (OFREP)';

export const ofrepRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/ofrep/v1/evaluate/flags/:key', tag: OFREP, permission: 'CLIENT_API', errorBody: 'ofrep',
    summary: 'One flag evaluated for the context in the body (`{context}`; `targetingKey` is the `userId`): `{key, value, reason, variant?, metadata}`',
    params: OfrepFlagParamsSchema, body: OfrepBodySchema, bodyOptional: true,
    success: { status: 200, description: '`{key, value, reason, variant?, metadata}`; an unknown or archived flag: 404 `{key, errorCode: "FLAG_NOT_FOUND"}`' },
    errors: ['NotFoundError'],
    handle: ({ c, principal, params, body, deps }) => {
      const resolution = deps.ofrep.one(ofrepScopeOf(principal), contextOf(c, body), params.key);
      if (!resolution) throw apiError('NotFoundError', `No flag named "${params.key}" in this token's projects and environment`);
      return c.json(resolution);
    },
  }),
  defineRoute({
    method: 'post', path: '/ofrep/v1/evaluate/flags', tag: OFREP, permission: 'EVALUATE', errorBody: 'ofrep',
    summary: 'Every flag of the token\'s projects and environment evaluated for the context in the body, with the `eventStreams` (SSE) that announce changes; weak `ETag`, 304 on `If-None-Match`',
    query: OfrepBulkQuerySchema, body: OfrepBodySchema, bodyOptional: true,
    success: { status: 200, description: '`{flags: [{key, value, reason, variant?, metadata}], eventStreams?: [{type: "sse", url}]}`' },
    handle: async ({ c, principal, body, deps }) => {
      const header = c.req.header('if-none-match');
      // A provider ahead of this node (several nodes; its ETag names the revision) waits for it a little, or hears "no change".
      const presented = presentedRevision(header);
      if (aheadOfNode(deps, presented) && !(await caughtUpWith(deps, presented))) return c.body(null, 304, { ETag: header!.split(',')[0]!.trim() });
      const revision = deps.registry.feed.revision;
      const flags = deps.ofrep.bulk(ofrepScopeOf(principal), contextOf(c, body));
      const eventStreams = await eventStreamsOf(c, principal, deps);
      const text = JSON.stringify(eventStreams ? { flags, eventStreams } : { flags });
      const etag = revisionedEtag(weakEtagOf(text), revision);
      c.header('ETag', etag);
      c.header('Cache-Control', 'private, no-cache');
      if (revisionedMatch(header, etag) === 'match') return c.body(null, 304);
      return c.body(text, 200, { 'content-type': 'application/json' });
    },
  }),
  defineRoute({
    method: 'get', path: '/ofrep/v1/events', tag: OFREP, permission: 'EVALUATE', authentication: 'ticket',
    summary: 'Server-sent events of the ticket\'s token: `data: {"type":"refetchEvaluation","etag":...}` after each committed change it can see (its revision as `id`), `: keep-alive` comments. The URL comes from a bulk answer\'s `eventStreams`; 401 for a missing, forged or expired ticket; 429 past `CLIENT_STREAMING_MAX_CONNECTIONS`; 404 when `CLIENT_STREAMING=false`',
    query: OfrepEventsQuerySchema,
    success: { status: 200, description: '`text/event-stream`' },
    errors: ['NotFoundError', 'TooManyRequests', 'Unavailable'],
    handle: ({ c, principal, deps }) => {
      if (!deps.config.clientStreaming) throw apiError('NotFoundError', 'Streaming is turned off on this server (CLIENT_STREAMING=false): poll POST /ofrep/v1/evaluate/flags');
      const scope = ofrepScopeOf(principal);
      // Served by @hono/node-server, the Node response: a stalled client's socket is destroyed through it.
      const socket = (c.env as { outgoing?: Closable } | undefined)?.outgoing;
      const stream = deps.clientStreams.open(scope, {}, parseRevision(c.req.header('last-event-id')), socket, 'ofrep');
      if (stream === 'full') throw apiError('TooManyRequests', `This server holds as many streams as it may (CLIENT_STREAMING_MAX_CONNECTIONS=${deps.config.clientStreamingMaxConnections}): poll instead`);
      if (stream === 'closed') throw apiError('Unavailable', 'The server is stopping: reconnect shortly');
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } });
    },
  }),
];
