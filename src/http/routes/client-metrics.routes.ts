/**
 * What SDKs send about themselves: `POST /api/client/register` and `POST /api/client/metrics` (Node SDK 6.12
 * `metrics.js`), and the same two under `/api/frontend/client/` for browser SDKs. Client and admin tokens
 * (`CLIENT_API`); every extra field an SDK sends is accepted. 202, no body.
 *
 * Frontend tokens do not exist yet: until they do, the frontend routes take what the client routes take.
 */
import type { Context } from 'hono';
import { ClientMetricsSchema, ClientRegisterSchema } from '../../schemas/metrics.schema.js';
import { recordMetrics, registerClient } from '../../use-cases/usage.use-cases.js';
import { defineRoute, type RouteSpec } from '../route.js';

/** The peer address of the connection (`@hono/node-server` passes the request as `c.env.incoming`); none in tests. */
const clientIpOf = (c: Context): string | null =>
  (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? null;

const metricsRoute = (path: string, summary: string) => defineRoute({
  method: 'post', path, tag: 'Client', permission: 'CLIENT_API', summary, body: ClientMetricsSchema,
  success: { status: 202, description: 'No body; the counts are visible after the next flush (`METRICS_FLUSH_SECONDS`)' },
  handle: ({ c, body, principal, registry }) => recordMetrics(registry, { body, clientIp: clientIpOf(c) }, principal),
});

const registerRoute = (path: string, summary: string) => defineRoute({
  method: 'post', path, tag: 'Client', permission: 'CLIENT_API', summary, body: ClientRegisterSchema,
  success: { status: 202, description: 'No body' },
  handle: ({ c, body, principal, registry }) => registerClient(registry, { body, clientIp: clientIpOf(c) }, principal),
});

export const clientMetricsRoutes: RouteSpec[] = [
  registerRoute('/api/client/register', 'An SDK registers its application and instance at start'),
  metricsRoute('/api/client/metrics', 'An SDK reports how often it evaluated each flag (yes, no, variants) over one bucket of time'),
  registerRoute('/api/frontend/client/register', 'A browser SDK registers (the client route\'s body and tokens)'),
  metricsRoute('/api/frontend/client/metrics', 'A browser SDK reports its evaluations (the client route\'s body and tokens)'),
];
