import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { Registry } from './actors/registry.js';
import type { TokenHasher } from './auth/token-hasher.js';
import type { Config } from './config.js';
import { errorResponse } from './http/errors.js';
import { ClientStreams } from './http/streams/client-streams.js';
import { DumpStreams } from './http/streams/dump-streams.js';
import { GzipCache } from './http/answers/gzip.js';
import { openApiDocument } from './http/openapi.js';
import { errorAnswer } from './http/pipeline/error-answer.js';
import { apiRunner, mountRoutes } from './http/pipeline/mount-routes.js';
import { observed } from './http/pipeline/observed.js';
import { fastPathsOf } from './http/fast-paths/dispatch.js';
import type { ServedApp } from './http/server.js';
import type { AppDeps, AppEnv, RouteSpec } from './http/route.js';
import { accessRoutes } from './http/routes/access.routes.js';
import { clientMetricsRoutes } from './http/routes/client-metrics.routes.js';
import { clientDeltaRoutes } from './http/routes/client-delta.routes.js';
import { clientStreamingRoutes } from './http/routes/client-streaming.routes.js';
import { clientRoutes } from './http/routes/client.routes.js';
import { environmentRoutes } from './http/routes/environments.routes.js';
import { featureRoutes } from './http/routes/features.routes.js';
import { bulkFeatureRoutes } from './http/routes/bulk-features.routes.js';
import { frontendRoutes } from './http/routes/frontend.routes.js';
import { ofrepRoutes } from './http/routes/ofrep.routes.js';
import { projectRoutes } from './http/routes/projects.routes.js';
import { segmentRoutes } from './http/routes/segments.routes.js';
import { dependencyRoutes } from './http/routes/dependencies.routes.js';
import { featuresBatchRoutes } from './http/routes/features-batch.routes.js';
import { tagRoutes } from './http/routes/tags.routes.js';
import { flagMetadataRoutes } from './http/routes/flag-metadata.routes.js';
import { contextRoutes } from './http/routes/context.routes.js';
import { strategyDefinitionRoutes } from './http/routes/strategy-definitions.routes.js';
import { stateRoutes } from './http/routes/state.routes.js';
import { backupRoutes } from './http/routes/backup.routes.js';
import { strategyRoutes } from './http/routes/strategies.routes.js';
import { toggleRoutes } from './http/routes/toggles.routes.js';
import { usageRoutes } from './http/routes/usage.routes.js';
import { variantRoutes } from './http/routes/variants.routes.js';
import { SummaryCache } from './http/answers/summary-cache.js';
import { FeatureSearch } from './queries/search/search.query.js';
import { searchRoutes } from './http/routes/search.routes.js';
import { lifecycleRoutes } from './http/routes/lifecycle.routes.js';
import { CHANGE_REQUESTS, changeRequestRoutes } from './http/routes/change-requests.routes.js';
import { changeRequestWriteRoutes } from './http/routes/change-request-writes.routes.js';
import { silentLogger, type Logger } from './log.js';
import { EvaluationQuery } from './queries/sdk/evaluation.query.js';
import { ClientDeltaQuery } from './queries/sdk/client-delta.query.js';
import { ClientFeaturesQuery } from './queries/sdk/client-features.query.js';
import { OfrepQuery } from './queries/sdk/ofrep.query.js';
import { StreamTickets } from './auth/stream-tickets.js';
import { HealthQuery } from './queries/health.query.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { metricsRoutes, METRICS_PATH, scrape } from './http/routes/metrics.routes.js';
import { edgeRoutes } from './http/routes/edge.routes.js';
import { EDGE_VALIDATE_BUDGET, SIGN_IN_TRACKED, SIGN_IN_WINDOW_MS } from './limits.js';
import { WorkGate } from './auth/work-gate.js';
import { consoleDeps } from './console/console-deps.js';
import { CONSOLE_ROUTES } from './console/console-routes.js';
import { consoleRunner, servedByConsole } from './console/pipeline/console-runner.js';
import { pageNotFound } from './console/pipeline/page-errors.js';
import { prepareTables, warmUp } from './console/warm-up.js';
import { renderWithoutAsyncHooks } from './console/jsx-without-async-hooks.js';
import { addonRoutes } from './http/routes/addons.routes.js';

/**
 * Every route record (all authenticated but `POST /edge/validate`, the sign-in routes and pages), in one list: the
 * router, the OpenAPI document and docs/permissions.md are built from it. The API's, then the console's
 * (`src/console/`: records like the API's, answered as HTML).
 */
export const ROUTES: RouteSpec[] = [
  ...projectRoutes,
  ...environmentRoutes,
  ...featureRoutes,
  ...bulkFeatureRoutes,
  ...strategyRoutes,
  ...toggleRoutes,
  ...variantRoutes,
  ...segmentRoutes,
  ...tagRoutes,
  ...flagMetadataRoutes,
  ...searchRoutes,
  ...lifecycleRoutes,
  ...contextRoutes,
  ...strategyDefinitionRoutes,
  ...dependencyRoutes,
  ...addonRoutes,
  ...featuresBatchRoutes,
  ...changeRequestRoutes,
  ...changeRequestWriteRoutes,
  ...stateRoutes,
  ...backupRoutes,
  ...accessRoutes,
  ...usageRoutes,
  ...clientMetricsRoutes,
  ...frontendRoutes,
  ...clientRoutes,
  ...clientDeltaRoutes,
  ...clientStreamingRoutes,
  ...ofrepRoutes,
  ...metricsRoutes,
  ...edgeRoutes,
  ...CONSOLE_ROUTES,
];

/**
 * Route prefixes served by an app of their own, mounted on the main one. Hono's RegExpRouter refuses a static
 * segment beside a parameter that goes on (`POST /api/admin/environments/validate` beside `.../:name/on`,
 * `GET .../environments/project/:projectId` beside `.../:name`, `POST /api/admin/context/validate` beside
 * `.../:contextField/legal-values`, `.../change-requests/count` beside `.../change-requests/:id/state`), and
 * Hono's default router then falls back to its TrieRouter for every route.
 * Mounted, these few admin routes go through a TrieRouter; every other route keeps the RegExpRouter.
 * Hand-kept for speed: docs/performance.md "Mounted route prefixes".
 */
export const MOUNTED_PREFIXES = ['/api/admin/environments', '/api/admin/context', CHANGE_REQUESTS];

/** Paths of the APIs (not console pages): their 404 stays JSON whatever the client accepts. */
const API_PATH = /^\/(api|ofrep|edge|internal-backstage|auth|docs|assets|health)(\/|$)/;

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The mounted prefix whose app serves a route path, or undefined for the main app. */
export const mountedPrefixOf = (path: string): string | undefined => MOUNTED_PREFIXES.find((prefix) => underPrefix(path, prefix));

/**
 * The Hono app with the fast paths of its routes, which `serveApp` answers before Hono (src/http/fast-paths/),
 * `prepare`, what a start builds before it listens (the console's flag tables), and `warm`, the background work
 * it runs once it listens (past-view checkpoints; both in `warm-up.ts`).
 */
export type App = Hono<AppEnv> & ServedApp & { prepare(): Promise<void>; warm(): Promise<void> };

/**
 * Builds the HTTP app over a registry; no globals, so tests build one per data directory. Every request gets
 * a request id (`X-Request-Id`) and one request log line (`observed`, src/http/pipeline/observed.ts). `tokenHasher` carries the
 * installation's token key (`loadTokenHasher(config)`).
 *
 * @example const app = createApp({ registry, config, tokenHasher: loadTokenHasher(config).hasher }); await app.request('/health')
 */
export function createApp({ registry, config, tokenHasher, log = silentLogger(), routes = ROUTES }: {
  registry: Registry; config: Config; tokenHasher: TokenHasher; log?: Logger; routes?: RouteSpec[];
}): App {
  // Before any page renders: a render must not turn on async hooks, which every API request would pay for.
  renderWithoutAsyncHooks();
  const app = new Hono<AppEnv>();
  const segments = () => Object.values(registry.service.state.segments);
  const clientFeatures = new ClientFeaturesQuery(registry, segments);
  const clientDelta = new ClientDeltaQuery(registry, clientFeatures, segments);
  const clientStreams = new ClientStreams(registry.feed, clientDelta, {
    maxConnections: config.clientStreamingMaxConnections, bufferBytes: config.clientStreamingBufferBytes, keepAliveMs: config.clientStreamingKeepAliveMs,
  }, log);
  const evaluation = new EvaluationQuery(registry);
  const search = new FeatureSearch(registry);
  const deps: AppDeps = { registry, config, log, tokenHasher, summaries: new SummaryCache(), evaluation, health: new HealthQuery(), gzip: new GzipCache(), dumps: new DumpStreams(),
    clientFeatures, clientDelta, clientStreams,
    ofrep: new OfrepQuery(evaluation), streamTickets: new StreamTickets(tokenHasher, config.ofrepStreamTicketSeconds),
    metrics: new ServiceMetrics(registry),
    search,
    edgeValidation: registry.budget('edge-validate', { perWindow: EDGE_VALIDATE_BUDGET.tokensPerWindow, windowMs: EDGE_VALIDATE_BUDGET.windowMs, maxKeys: EDGE_VALIDATE_BUDGET.addresses }),
    // Counted across every node on a shared store (`registry.budget`), in memory on one.
    signInLimits: {
      byAccount: registry.budget('sign-in-account', { perWindow: config.console.loginFailuresPerUser, windowMs: SIGN_IN_WINDOW_MS, maxKeys: SIGN_IN_TRACKED }),
      byAddress: registry.budget('sign-in-address', { perWindow: config.console.loginFailuresPerAddress, windowMs: SIGN_IN_WINDOW_MS, maxKeys: SIGN_IN_TRACKED }),
      passwordChecks: new WorkGate(config.console.passwordChecksRunning, config.console.passwordChecksWaiting),
    },
  };
  const console = consoleDeps(deps);
  deps.metrics.setStreamingSource(clientStreams);
  // Console pages answer HTML to browsers: they are not part of the API's document. Built on the first ask:
  // it costs ~15 ms of CPU, which every start (and every test's app) paid for a document few callers read.
  let openapi: string | undefined;
  const openapiText = () => (openapi ??= JSON.stringify(openApiDocument(routes.filter((route) => !route.page), '1')));

  const observe = { log, metrics: deps.metrics };
  // 200 while the service answers requests; `status` tells whether writes work too (docs/operations.md "Metrics").
  // 503 for a node of several cut off from the database past DATABASE_CONTACT_TIMEOUT_MS: a load balancer takes
  // it out. `/health/reads` stays 200 while it answers reads, for a load balancer's last resort when every node
  // lost the database (docs/operations.md "Several nodes").
  app.get('/health', observed(observe, '/health', (c) => {
    const { status, problems } = registry.serving();
    if (status === 'unhealthy') return c.json({ health: 'BAD', status, problems }, 503);
    return c.json(status === 'serving' ? { health: 'GOOD', status } : { health: 'GOOD', status, problems });
  }));
  app.get('/health/reads', observed(observe, '/health/reads', (c) => {
    const { status, problems } = registry.serving();
    return c.json(status === 'serving' ? { health: 'GOOD', status } : { health: 'GOOD', status, problems });
  }));
  app.get('/assets/:file', observed(observe, '/assets/:file', (c) => console.assets.answer(c.req.path) ?? errorResponse(c, { kind: 'NotFoundError', message: 'No such asset' })));
  app.get('/docs/openapi.json', observed(observe, '/docs/openapi.json', (c) => c.body(openapiText(), 200, { 'content-type': 'application/json' })));
  // Without METRICS_REQUIRE_TOKEN the metrics answer without a token, as Unleash's do; with it, the route
  // record (ROUTES, permission ADMIN) answers instead.
  if (!config.metricsRequireToken) app.get(METRICS_PATH, observed(observe, METRICS_PATH, () => scrape(deps.metrics)));
  // CORS on the frontend API only (browsers call it with public frontend tokens); preflights need no token.
  const frontendCors = cors({
    origin: config.frontendCorsOrigins.includes('*') ? '*' : config.frontendCorsOrigins,
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'Unleash-AppName', 'Unleash-SDK', 'Unleash-Connection-Id', 'Unleash-Client-Spec', 'Unleash-InstanceId'],
    exposeHeaders: ['ETag'],
    maxAge: 86_400,
  });
  // A preflight is answered by the CORS middleware alone, with a request id and a log line like any answer;
  // the routes' own answers get the same headers as a step of their pipeline (`corsStep`).
  for (const path of ['/api/frontend', '/api/frontend/*']) {
    app.options(path, observed(observe, path, async (c) => (await frontendCors(c, async () => {})) ?? c.body(null, 204)));
  }
  // OFREP: browser providers call the evaluation with a frontend token and open the event stream (EventSource, no credentials).
  const ofrepCors = cors({
    origin: config.frontendCorsOrigins.includes('*') ? '*' : config.frontendCorsOrigins,
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'Last-Event-ID'],
    exposeHeaders: ['ETag'],
    maxAge: 86_400,
  });
  app.options('/ofrep/*', observed(observe, '/ofrep/*', async (c) => (await ofrepCors(c, async () => {})) ?? c.body(null, 204)));
  const browsers = (route: RouteSpec) => underPrefix(route.path, '/api/frontend') || route.path.startsWith('/ofrep/');
  const notFoundPage = pageNotFound(console);
  const notFound = observed(observe, null, (c) => {
    const message = `No route ${c.req.method} ${c.req.path.slice(0, 200)}`;
    // A browser that asked for a page outside the APIs gets a page.
    if (c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html') && !API_PATH.test(c.req.path)) return notFoundPage(c, message);
    return errorResponse(c, { kind: 'NotFoundError', message });
  });
  // Every handler answers its own errors (`observed`); this is the net under the CORS middleware.
  const onError = (error: unknown, c: Context<AppEnv>) => errorAnswer(c, error, observe, null);
  // Each record is served by the API's steps, or the console's (its pages and its JSON sign-in).
  const api = apiRunner(deps, browsers);
  const pages = consoleRunner(console, api);
  const runnerOf = (route: RouteSpec) => (servedByConsole(route) ? pages(route) : api(route));
  mountRoutes(app, routes.filter((route) => !route.page && mountedPrefixOf(route.path) === undefined), observe, runnerOf);
  for (const prefix of MOUNTED_PREFIXES) {
    const own = routes.filter((route) => mountedPrefixOf(route.path) === prefix);
    if (own.length === 0) continue;
    const mounted = new Hono<AppEnv>();
    mountRoutes(mounted, own, observe, runnerOf);
    mounted.notFound(notFound);
    mounted.onError(onError);
    app.mount(prefix, mounted.fetch, { replaceRequest: false });
  }

  // The console's pages have a router of their own, asked when no API route matched: in the API's, their ~100
  // routes made every API request's match about three times dearer. Hand-kept for speed: docs/performance.md "Pages apart".
  const pageApp = new Hono<AppEnv>();
  mountRoutes(pageApp, routes.filter((route) => route.page && mountedPrefixOf(route.path) === undefined), observe, runnerOf);
  pageApp.notFound(notFound);
  pageApp.onError(onError);
  app.notFound((c) => pageApp.fetch(c.req.raw, c.env));
  app.onError(onError);
  return Object.assign(app, { fastPaths: fastPathsOf(routes, deps), prepare: () => prepareTables(console), warm: () => warmUp(console), staleness: () => registry.node.staleness() });
}

