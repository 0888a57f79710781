/**
 * What Unleash Edge asks of its upstream besides the SDK routes (docs/scaling.md "Unleash Edge in front"):
 * `POST /edge/validate` (which token texts are tokens, asked without a token), `POST /api/client/metrics/bulk`
 * (the SDKs' registrations and counts it gathered, per environment) and `POST /api/client/metrics/edge` (its
 * report on itself). The request shapes are those of Edge's source (`unleash-edge-http-client`).
 */
import { EdgeInstanceDataSchema, EdgeTokensView, EdgeValidateSchema, BulkMetricsSchema } from '../../schemas/edge.schema.js';
import { EDGE_VALIDATE_BUDGET } from '../../limits.js';
import { recordBulkMetrics } from '../../use-cases/bulk-metrics.use-cases.js';
import { validateEdgeTokens } from '../../use-cases/edge-tokens.use-cases.js';
import { setResponseHeader } from '../answers/answer.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { peerAddress } from './frontend.routes.js';

const PER_MINUTE = Math.round(EDGE_VALIDATE_BUDGET.tokensPerWindow * 60_000 / EDGE_VALIDATE_BUDGET.windowMs);

export const edgeRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/edge/validate', tag: 'Unleash Edge', permission: 'NONE', authentication: 'none',
    summary: `Which of the listed token texts are valid API tokens, with their type, projects and environment (what Unleash Edge asks before it serves a token); no token needed. Invalid texts are left out. Each address may have ${PER_MINUTE} texts checked a minute`,
    body: EdgeValidateSchema,
    success: { status: 200, description: '`{tokens: [{token, type, projects, environment}]}`: the valid ones, in the order sent', schema: EdgeTokensView },
    errors: ['TooManyRequests', 'Unavailable'],
    handle: async ({ c, body, registry, deps }) => {
      // In-process requests (tests through `app.request`) have no peer: they share one budget.
      const charge = await deps.edgeValidation.take(peerAddress(c) ?? 'in-process', Math.max(1, body.tokens.length));
      if (charge.kind === 'unavailable') {
        setResponseHeader(c, 'Retry-After', '5');
        throw apiError('Unavailable', 'The validation budget cannot be counted: the database is unreachable; try again in a moment');
      }
      if (charge.kind === 'spent') {
        const seconds = Math.ceil(charge.waitMs / 1000);
        setResponseHeader(c, 'Retry-After', String(seconds));
        throw apiError('TooManyRequests', `This address has had ${PER_MINUTE} token texts checked in the last minute, as many as it may; try again in ${seconds} s`);
      }
      return validateEdgeTokens(registry, { tokens: body.tokens, hasher: deps.tokenHasher });
    },
    view: (tokens) => ({ tokens }),
  }),
  defineRoute({
    method: 'post', path: '/api/client/metrics/bulk', tag: 'Unleash Edge', permission: 'CLIENT_API',
    summary: 'The registrations and usage counts Unleash Edge gathered from the SDKs behind it, counted as if they had posted them; a client token records its own environment\'s entries only',
    body: BulkMetricsSchema,
    success: { status: 202, description: 'No body; the counts are visible after the next flush (`METRICS_FLUSH_SECONDS`)' },
    handle: ({ c, body, principal, registry }) => recordBulkMetrics(registry, { body, clientIp: peerAddress(c) ?? null }, principal),
  }),
  defineRoute({
    method: 'post', path: '/api/client/metrics/edge', tag: 'Unleash Edge', permission: 'CLIENT_API',
    summary: 'Unleash Edge\'s report on itself and the Edges behind it (traffic, latency, process figures): accepted and not kept',
    body: EdgeInstanceDataSchema,
    success: { status: 202, description: 'No body' },
    // Accepted and not kept: nothing to decide, no use case.
    handle: () => ({ ok: true, value: undefined }),
  }),
];
