import type { Hono } from 'hono';
import { corsStep } from '../middleware/cors.js';
import type { AppDeps, AppEnv, RouteSpec } from '../route.js';
import { errorHookOf } from './error-answer.js';
import { handleRoute } from './handle-route.js';
import { observed } from './observed.js';
import { pipelineOf } from './steps.js';

/**
 * Registers every route on `app`: one handler each, `observed`, running its steps ({@link pipelineOf}) and
 * then {@link handleRoute}. Routes `cors` names answer browsers of other origins (`FRONTEND_CORS_ORIGINS`).
 * Hand-kept for speed: docs/performance.md "One handler per route".
 *
 * @example mountRoutes(app, ROUTES, deps, (route) => route.path.startsWith('/api/frontend'))
 */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteSpec[], deps: AppDeps, cors: (route: RouteSpec) => boolean = () => false): void {
  for (const route of routes) {
    const steps = pipelineOf(route, deps);
    if (cors(route)) steps.unshift(corsStep(deps.config.frontendCorsOrigins));
    app.on(route.method.toUpperCase(), route.path, observed(deps, route.path, async (c) => {
      for (const step of steps) {
        const pending = step(c);
        if (pending) await pending;
      }
      return handleRoute(c, route, deps);
    }, errorHookOf(route, deps)));
  }
}
