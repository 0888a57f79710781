/**
 * What SDKs send about themselves: `POST /api/client/register` and `POST /api/client/metrics` (Node SDK 6.12
 * `metrics.js`), and the same two under `/api/frontend/client/` for browser SDKs. Client and admin tokens
 * (`CLIENT_API`) on the first two, frontend and admin tokens (`FRONTEND_API`) on the others; every extra field
 * an SDK sends is accepted. 202, no body.
 */
import type { Context } from 'hono';
import { ClientMetricsSchema, ClientRegisterSchema } from '../../schemas/metrics.schema.js';
import { recordMetrics, registerClient } from '../../use-cases/usage.use-cases.js';
import type { Permission } from '../../auth/permissions.js';
import { defineRoute, type RouteSpec } from '../route.js';

/** The peer address of the connection (`@hono/node-server` passes the request as `c.env.incoming`); none in tests. */
const clientIpOf = (c: Context): string | null =>
  (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? null;

const metricsRoute = (path: string, summary: string, permission: Permission) => defineRoute({
  method: 'post', path, tag: 'Client', permission, summary, body: ClientMetricsSchema,
  success: { status: 202, description: 'No body; the counts are visible after the next flush (`METRICS_FLUSH_SECONDS`)' },
  handle: ({ c, body, principal, registry }) => recordMetrics(registry, { body, clientIp: clientIpOf(c) }, principal),
});

const registerRoute = (path: string, summary: string, permission: Permission) => defineRoute({
  method: 'post', path, tag: 'Client', permission, summary, body: ClientRegisterSchema,
  success: { status: 202, description: 'No body' },
  handle: ({ c, body, principal, registry }) => registerClient(registry, { body, clientIp: clientIpOf(c) }, principal),
});

export const clientMetricsRoutes: RouteSpec[] = [
  registerRoute('/api/client/register', 'An SDK registers its application and instance at start', 'CLIENT_API'),
  metricsRoute('/api/client/metrics', 'An SDK reports how often it evaluated each flag (yes, no, variants) over one bucket of time', 'CLIENT_API'),
  registerRoute('/api/frontend/client/register', 'A browser SDK registers (the client route\'s body, frontend tokens)', 'FRONTEND_API'),
  metricsRoute('/api/frontend/client/metrics', 'A browser SDK reports its evaluations (the client route\'s body, frontend tokens)', 'FRONTEND_API'),
];
