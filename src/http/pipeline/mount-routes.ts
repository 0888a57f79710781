import type { Context, Hono } from 'hono';
import { corsStep } from '../middleware/cors.js';
import type { AppDeps, AppEnv, RouteSpec, Step } from '../route.js';
import { errorHookOf } from './error-answer.js';
import type { ErrorHook } from './error-hook.js';
import { handleRoute } from './handle-route.js';
import { observed } from './observed.js';
import type { Observers } from './observers.js';
import { pipelineOf } from './steps.js';

/** How one route is served: its steps in order, then its answer; errors its own way, or the standard body. */
export interface Runner {
  steps: Step[];
  answer(c: Context<AppEnv>): Promise<Response>;
  onError?: ErrorHook | undefined;
}

/** The runner of each route: the composition root picks the API's or another (the console's) per record. */
export type RouteRunner = (route: RouteSpec) => Runner;

/**
 * The API's runner: its steps ({@link pipelineOf}), then {@link handleRoute}. Routes `cors` names answer browsers
 * of other origins (`FRONTEND_CORS_ORIGINS`).
 *
 * @example apiRunner(deps, (route) => route.path.startsWith('/api/frontend'))
 */
export function apiRunner(deps: AppDeps, cors: (route: RouteSpec) => boolean = () => false): RouteRunner {
  return (route) => {
    const steps = pipelineOf(route, deps);
    if (cors(route)) steps.unshift(corsStep(deps.config.frontendCorsOrigins));
    return { steps, answer: (c) => handleRoute(c, route, deps), onError: errorHookOf(route) };
  };
}

/**
 * Registers every route on `app`: one handler each, `observed`, running its runner's steps and then its answer.
 * Hand-kept for speed: docs/performance.md "One handler per route".
 *
 * @example mountRoutes(app, ROUTES, deps, apiRunner(deps))
 */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteSpec[], observers: Observers, runnerOf: RouteRunner): void {
  for (const route of routes) {
    const { steps, answer, onError } = runnerOf(route);
    app.on(route.method.toUpperCase(), route.path, observed(observers, route.path, async (c) => {
      for (const step of steps) {
        const pending = step(c);
        if (pending) await pending;
      }
      return answer(c);
    }, onError));
  }
}
