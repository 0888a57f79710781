import { Hono } from 'hono';
import type { Registry } from './actors/registry.js';
import { CorruptRecordError } from '../snapshots/codec.js';
import type { Config } from './config.js';
import { ApiError, errorResponse, internalErrorResponse } from './http/errors.js';
import { mountRoutes } from './http/mount.js';
import { openApiDocument } from './http/openapi.js';
import type { AppDeps, RouteSpec } from './http/route.js';
import { accessRoutes } from './http/routes/access.routes.js';
import { environmentRoutes } from './http/routes/environments.routes.js';
import { featureRoutes } from './http/routes/features.routes.js';
import { projectRoutes } from './http/routes/projects.routes.js';
import { stateRoutes } from './http/routes/state.routes.js';
import { strategyRoutes } from './http/routes/strategies.routes.js';
import { toggleRoutes } from './http/routes/toggles.routes.js';
import { variantRoutes } from './http/routes/variants.routes.js';
import { SummaryCache } from './http/summary-cache.js';
import { GzipCache } from './http/gzip.js';

/** Every authenticated route, in one list: the router and the OpenAPI document are built from it. */
export const ROUTES: RouteSpec[] = [
  ...projectRoutes,
  ...environmentRoutes,
  ...featureRoutes,
  ...strategyRoutes,
  ...toggleRoutes,
  ...variantRoutes,
  ...stateRoutes,
  ...accessRoutes,
];

/**
 * Builds the HTTP app over a registry; no globals, so tests build one per data directory.
 *
 * @example const app = createApp({ registry, config }); await app.request('/health')
 */
export function createApp({ registry, config, routes = ROUTES }: { registry: Registry; config: Config; routes?: RouteSpec[] }): Hono {
  const app = new Hono();
  const deps: AppDeps = { registry, config, summaries: new SummaryCache(), gzip: new GzipCache() };
  const openapi = JSON.stringify(openApiDocument(routes, '1'));

  app.get('/health', (c) => c.json({ health: 'GOOD' }));
  app.get('/docs/openapi.json', (c) => c.body(openapi, 200, { 'content-type': 'application/json' }));
  mountRoutes(app, routes, deps);

  app.notFound((c) => errorResponse(c, { kind: 'NotFoundError', message: `No route ${c.req.method} ${c.req.path}` }));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error.error);
    // Damaged stored data met while reading (history of a damaged record): the key, not a bare 500.
    if (error instanceof CorruptRecordError) return errorResponse(c, { kind: 'Unavailable', message: error.message });
    return internalErrorResponse(c, error);
  });
  return app;
}
