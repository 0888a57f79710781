/** The Prometheus metrics (docs/operations.md "Metrics"), at Unleash's path. */
import type { ServiceMetrics } from '../../metrics/service-metrics.js';
import { defineRoute, type RouteSpec } from '../route.js';

/** Unleash's path of the Prometheus metrics. */
export const METRICS_PATH = '/internal-backstage/prometheus';

/** The exposition text of `metrics`, as Prometheus scrapes it. */
export async function scrape(metrics: ServiceMetrics): Promise<Response> {
  return new Response(await metrics.text(), { status: 200, headers: { 'content-type': metrics.contentType } });
}

export const metricsRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: METRICS_PATH, tag: 'Operations', permission: 'ADMIN',
    summary: 'Prometheus metrics (text format 0.0.4). Needs an admin token only with METRICS_REQUIRE_TOKEN=true; by default it answers without one, as Unleash does',
    success: { status: 200, description: 'The metrics, as Prometheus text' },
    handle: ({ deps }) => scrape(deps.metrics),
  }),
];
