/**
 * Reads of SDK usage for people: a flag's usage (Unleash 6.10's `/api/admin/client-metrics/features/:name`
 * and its `/raw` hourly buckets) and the registered applications with their instances. `READ`.
 */
import { ApplicationParamsSchema, FeatureMetricsParamsSchema, HoursBackQuerySchema } from '../../schemas/metrics.schema.js';
import { applicationByName, applications, featureMetrics, featureUsage } from '../../queries/usage.query.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { ApplicationDetailView, ApplicationsView, FeatureMetricsView, FeatureUsageView, applicationDetail, applicationView } from '../answers/views.js';

const FEATURE = '/api/admin/client-metrics/features/:featureName';

export const usageRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: FEATURE, tag: 'Metrics', permission: 'READ', params: FeatureMetricsParamsSchema,
    summary: 'The current hour of usage of a flag per environment, and the applications that reported it in the last 48 h',
    success: { status: 200, description: '`{version: 1, maturity, featureName, lastHourUsage, seenApplications}`', schema: FeatureUsageView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => featureUsage(registry, params.featureName),
    view: (usage) => ({ version: 1, maturity: 'stable', ...usage }),
  }),
  defineRoute({
    method: 'get', path: `${FEATURE}/raw`, tag: 'Metrics', permission: 'READ', params: FeatureMetricsParamsSchema, query: HoursBackQuerySchema,
    summary: 'The hourly buckets of a flag\'s usage per environment over the last `hoursBack` hours (1 to 48, default 48)',
    success: { status: 200, description: '`{version: 1, maturity, data}`', schema: FeatureMetricsView }, errors: ['NotFoundError'],
    handle: ({ params, query, registry }) => featureMetrics(registry, params.featureName, query.hoursBack),
    view: ({ data }) => ({ version: 1, maturity: 'stable', data }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/metrics/applications', tag: 'Metrics', permission: 'READ',
    summary: 'The applications whose SDKs registered or reported metrics',
    success: { status: 200, description: '`{total, applications}`', schema: ApplicationsView },
    handle: ({ c, registry }) => {
      const apps = applications(registry).map(applicationView);
      return c.json({ total: apps.length, applications: apps });
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/metrics/applications/:appName', tag: 'Metrics', permission: 'READ', params: ApplicationParamsSchema,
    summary: 'An application with its instances, most recently seen first',
    success: { status: 200, description: 'The application and its instances', schema: ApplicationDetailView }, errors: ['NotFoundError'],
    handle: ({ params, registry }) => applicationByName(registry, params.appName),
    view: applicationDetail,
  }),
];
