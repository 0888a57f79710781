import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { StorageError } from './actors/command-actor.js';
import type { Registry } from './actors/registry.js';
import type { TokenHasher } from './auth/token-hasher.js';
import type { Config } from './config.js';
import { ApiError, errorResponse, internalErrorResponse } from './http/errors.js';
import { ClientStreams } from './http/client-streams.js';
import { DumpStreams } from './http/dump-streams.js';
import { GzipCache } from './http/gzip.js';
import { requestLog } from './http/middleware/request-log.js';
import { openApiDocument } from './http/openapi.js';
import { mountRoutes } from './http/pipeline.js';
import type { AppDeps, AppEnv, RouteSpec } from './http/route.js';
import { accessRoutes } from './http/routes/access.routes.js';
import { clientMetricsRoutes } from './http/routes/client-metrics.routes.js';
import { clientDeltaRoutes } from './http/routes/client-delta.routes.js';
import { clientStreamingRoutes } from './http/routes/client-streaming.routes.js';
import { clientRoutes } from './http/routes/client.routes.js';
import { environmentRoutes } from './http/routes/environments.routes.js';
import { featureRoutes } from './http/routes/features.routes.js';
import { frontendRoutes } from './http/routes/frontend.routes.js';
import { projectRoutes } from './http/routes/projects.routes.js';
import { segmentRoutes } from './http/routes/segments.routes.js';
import { dependencyRoutes } from './http/routes/dependencies.routes.js';
import { tagRoutes } from './http/routes/tags.routes.js';
import { stateRoutes } from './http/routes/state.routes.js';
import { backupRoutes } from './http/routes/backup.routes.js';
import { strategyRoutes } from './http/routes/strategies.routes.js';
import { toggleRoutes } from './http/routes/toggles.routes.js';
import { usageRoutes } from './http/routes/usage.routes.js';
import { variantRoutes } from './http/routes/variants.routes.js';
import { SummaryCache } from './http/summary-cache.js';
import { silentLogger, type Logger } from './log.js';
import { EvaluationQuery } from './queries/evaluation.query.js';
import { ClientDeltaQuery } from './queries/client-delta.query.js';
import { ClientFeaturesQuery } from './queries/client-features.query.js';
import { HealthQuery } from './queries/health.query.js';
import { ServiceMetrics } from './queries/metrics.query.js';
import { metricsRoutes, METRICS_PATH, scrape } from './http/routes/metrics.routes.js';

/** Every authenticated route, in one list: the router, the OpenAPI document and docs/permissions.md are built from it. */
export const ROUTES: RouteSpec[] = [
  ...projectRoutes,
  ...environmentRoutes,
  ...featureRoutes,
  ...strategyRoutes,
  ...toggleRoutes,
  ...variantRoutes,
  ...segmentRoutes,
  ...tagRoutes,
  ...dependencyRoutes,
  ...stateRoutes,
  ...backupRoutes,
  ...accessRoutes,
  ...usageRoutes,
  ...clientMetricsRoutes,
  ...frontendRoutes,
  ...clientRoutes,
  ...clientDeltaRoutes,
  ...clientStreamingRoutes,
  ...metricsRoutes,
];

/**
 * Builds the HTTP app over a registry; no globals, so tests build one per data directory. Every request gets
 * a request id (`hono/request-id`, `X-Request-Id`) and one request log line. `tokenHasher` carries the
 * installation's token key (`loadTokenHasher(config)`).
 *
 * @example const app = createApp({ registry, config, tokenHasher: loadTokenHasher(config).hasher }); await app.request('/health')
 */
export function createApp({ registry, config, tokenHasher, log = silentLogger(), routes = ROUTES }: {
  registry: Registry; config: Config; tokenHasher: TokenHasher; log?: Logger; routes?: RouteSpec[];
}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const segments = () => Object.values(registry.service.state.segments);
  const clientFeatures = new ClientFeaturesQuery(registry, segments);
  const clientDelta = new ClientDeltaQuery(registry, clientFeatures, segments);
  const clientStreams = new ClientStreams(registry.feed, clientDelta, {
    maxConnections: config.clientStreamingMaxConnections, bufferBytes: config.clientStreamingBufferBytes, keepAliveMs: config.clientStreamingKeepAliveMs,
  }, log);
  const deps: AppDeps = { registry, config, log, tokenHasher, summaries: new SummaryCache(), evaluation: new EvaluationQuery(registry), health: new HealthQuery(), gzip: new GzipCache(), dumps: new DumpStreams(),
    clientFeatures, clientDelta, clientStreams,
    metrics: new ServiceMetrics(registry),
  };
  const openapi = JSON.stringify(openApiDocument(routes, '1'));

  app.use(requestId(), requestLog(log, deps.metrics));
  // 200 while the service answers requests; `status` tells whether writes work too (docs/operations-metrics-failures.md).
  app.get('/health', (c) => {
    c.set('route', '/health');
    const { status, problems } = registry.serving();
    return c.json(status === 'serving' ? { health: 'GOOD', status } : { health: 'GOOD', status, problems });
  });
  app.get('/docs/openapi.json', (c) => {
    c.set('route', '/docs/openapi.json');
    return c.body(openapi, 200, { 'content-type': 'application/json' });
  });
  // Without METRICS_REQUIRE_TOKEN the metrics answer without a token, as Unleash's do; with it, the route
  // record (ROUTES, permission ADMIN) answers instead.
  if (!config.metricsRequireToken) app.get(METRICS_PATH, (c) => {
    c.set('route', METRICS_PATH);
    return scrape(deps.metrics);
  });
  // CORS on the frontend API only (browsers call it with public frontend tokens); preflights need no token.
  const frontendCors = cors({
    origin: config.frontendCorsOrigins.includes('*') ? '*' : config.frontendCorsOrigins,
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'Unleash-AppName', 'Unleash-SDK', 'Unleash-Connection-Id', 'Unleash-Client-Spec', 'Unleash-InstanceId'],
    exposeHeaders: ['ETag'],
    maxAge: 86_400,
  });
  app.use('/api/frontend', frontendCors);
  app.use('/api/frontend/*', frontendCors);
  mountRoutes(app, routes, deps);

  app.notFound((c) => errorResponse(c, { kind: 'NotFoundError', message: `No route ${c.req.method} ${c.req.path.slice(0, 200)}` }));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error.error);
    if (error instanceof StorageError) return storageErrorResponse(c, error, deps, log);
    // A Hono middleware's own 4xx (none is expected: the pipeline answers its errors first) keeps its status class.
    if (error instanceof HTTPException && error.status < 500) return errorResponse(c, { kind: 'ValidationError', message: error.message.slice(0, 200) });
    return internalErrorResponse(c, error, log);
  });
  return app;
}

/**
 * A write the disk refused or did not confirm in time: 503 `StorageUnavailable` with `Retry-After`, the cause
 * (which may name files) in the log only. Nothing of a `failed` or `stalled` write is recorded; a `timeout`
 * one may land later, and then it is in the state as on disk.
 */
function storageErrorResponse(c: Context<AppEnv>, error: StorageError, deps: AppDeps, log: Logger): Response {
  deps.metrics.storageError(error.reason);
  log.warn({ reqId: c.get('requestId'), route: c.get('route') ?? null, reason: error.reason, err: error.cause }, 'write refused: storage unavailable');
  const response = errorResponse(c, { kind: 'StorageUnavailable', message: `Storage unavailable: ${error.message}. Reads still work; writes resume once the disk takes them again.` });
  response.headers.set('Retry-After', '5');
  return response;
}
