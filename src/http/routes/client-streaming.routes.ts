/**
 * `GET /api/client/streaming` (docs/client-contract.md "Backend SDK API"), what `unleash-client` reads with
 * `experimentalMode: {type: 'streaming'}`: server-sent events fed by the committed-event feed (see
 * `ClientStreams`). A route record like the others (authentication, permission, OpenAPI); its handler answers
 * a streaming `Response` instead of a view (docs/architecture.md "Streamed answers").
 */
import { parseRevision } from '../../queries/sdk/client-delta.query.js';
import { clientScopeOf } from '../client-spec.js';
import type { Closable } from '../streams/client-stream-sinks.js';
import { apiError } from '../errors.js';
import { clientStreamOnNode } from '../fast-paths/client-stream.fast-path.js';
import { defineRoute, type RouteSpec } from '../route.js';

export const clientStreamingRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/client/streaming', tag: 'Client', permission: 'CLIENT_API',
    summary: 'Server-sent events of the token\'s scope (no query parameters): `unleash-connected` with a hydration (or the deltas after a `Last-Event-ID` the history still holds), then `unleash-updated` per committed change, each with its revision as `id`; `: keep-alive` comments. 429 past `CLIENT_STREAMING_MAX_CONNECTIONS`; 404 when `CLIENT_STREAMING=false`',
    success: { status: 200, description: '`text/event-stream`' },
    errors: ['NotFoundError', 'TooManyRequests', 'Unavailable'],
    handle: ({ c, principal, deps }) => {
      if (!deps.config.clientStreaming) throw apiError('NotFoundError', 'Streaming is turned off on this server (CLIENT_STREAMING=false): poll /api/client/features or /api/client/delta');
      // Served by @hono/node-server, the Node response: a stalled client's socket is destroyed through it.
      const socket = (c.env as { outgoing?: Closable } | undefined)?.outgoing;
      const stream = deps.clientStreams.open(clientScopeOf(principal), {}, parseRevision(c.req.header('last-event-id')), socket);
      if (stream === 'full') throw apiError('TooManyRequests', `This server holds as many streams as it may (CLIENT_STREAMING_MAX_CONNECTIONS=${deps.config.clientStreamingMaxConnections}): poll instead`);
      if (stream === 'closed') throw apiError('Unavailable', 'The server is stopping: reconnect shortly');
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } });
    },
    node: clientStreamOnNode,
  }),
];
