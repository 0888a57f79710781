/**
 * Answers about SDK usage: a flag's hourly metrics and the applications and instances that reported.
 * Typed views (`src/http/answers/views.ts`) and the OpenAPI document read them; nothing is parsed with them on the hot path.
 */
import * as v from 'valibot';

const isoDate = v.pipe(v.string(), v.isoTimestamp());

/** One hourly bucket of a flag's usage in one environment (Unleash's `featureEnvironmentMetricsSchema`). */
export const FeatureEnvironmentMetricsView = v.object({
  featureName: v.optional(v.string()),
  environment: v.string(),
  timestamp: isoDate,
  yes: v.number(),
  no: v.number(),
  variants: v.optional(v.record(v.string(), v.number())),
});

/** `GET /api/admin/client-metrics/features/:featureName` (Unleash's `featureUsageSchema`). */
export const FeatureUsageView = v.object({
  version: v.literal(1),
  maturity: v.literal('stable'),
  featureName: v.string(),
  lastHourUsage: v.array(FeatureEnvironmentMetricsView),
  seenApplications: v.array(v.string()),
});

/** `GET /api/admin/client-metrics/features/:featureName/raw` (Unleash's `featureMetricsSchema`). */
export const FeatureMetricsView = v.object({ version: v.literal(1), maturity: v.literal('stable'), data: v.array(FeatureEnvironmentMetricsView) });

/** An application in the list (Unleash's `applicationSchema`, with when it was first and last seen). */
export const ApplicationView = v.object({
  appName: v.string(),
  sdkVersion: v.optional(v.string()),
  strategies: v.array(v.string()),
  usage: v.array(v.object({ project: v.string(), environments: v.array(v.string()) })),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type ApplicationView = v.InferOutput<typeof ApplicationView>;

/** `GET /api/admin/metrics/applications` (Unleash's `applicationsSchema`). */
export const ApplicationsView = v.object({ total: v.number(), applications: v.array(ApplicationView) });

/** A running SDK instance of an application. */
export const InstanceView = v.object({
  appName: v.string(), instanceId: v.string(), sdkVersion: v.nullable(v.string()), clientIp: v.nullable(v.string()),
  environment: v.string(), createdAt: isoDate, lastSeen: isoDate,
});

/** `GET /api/admin/metrics/applications/:appName`: the application and its instances. */
export const ApplicationDetailView = v.object({
  ...ApplicationView.entries,
  instances: v.array(InstanceView),
  links: v.object({ self: v.string() }),
});
export type ApplicationDetailView = v.InferOutput<typeof ApplicationDetailView>;
