/**
 * `POST /api/client/metrics/bulk`: the registrations and counts Unleash Edge gathered from the SDKs behind it,
 * counted as if those SDKs had posted them (`registerClient` and `recordMetrics`), so applications, instances,
 * usage counts and `lastSeenAt` show them.
 */
import type { Registry } from '../actors/registry.js';
import type { Principal } from '../auth/permissions.js';
import type { BulkMetricsBody } from '../schemas/edge.schema.js';
import type { ClientMetricsBody, FlagCountsBody } from '../schemas/metrics.schema.js';
import { ok, type Result } from '../domain/result.js';
import { recordMetrics, registerClient, type ClientOrigin } from './usage.use-cases.js';

/** One SDK bucket rebuilt from a batch: an application's counts in one environment over one hour. */
interface Bucket {
  appName: string;
  environment: string;
  timestamp: number;
  toggles: Record<string, FlagCountsBody>;
}

/**
 * Records a batch within the token's scope, as Unleash does: a client token records the entries of its own
 * environment and drops the others (Edge sends every application in each environment's batch, and each
 * environment's counts with that environment's token); an admin token records every environment. An entry
 * without an environment is the token's. Metric entries become one SDK bucket per application, environment
 * and hour, reported by an instance of that application the batch names (else `default`, as Unleash names an
 * instance that gave no id).
 */
export async function recordBulkMetrics(registry: Registry, input: { body: BulkMetricsBody } & ClientOrigin, principal: Principal): Promise<Result<void>> {
  const { body, clientIp } = input;
  const within = (environment: string | null) =>
    principal.kind === 'admin' || environment === null || ((principal.kind === 'client' || principal.kind === 'frontend') && environment === principal.environment);
  const applications = body.applications.filter((app) => within(app.environment));
  for (const app of applications) {
    const registered = await registerClient(registry, { body: app, clientIp }, principal);
    if (!registered.ok) return registered;
  }
  for (const bucket of bucketsOf(body.metrics.filter((entry) => within(entry.environment)))) {
    const app = applications.find((a) => a.appName === bucket.appName && (a.environment === null || a.environment === bucket.environment));
    const report: ClientMetricsBody = {
      appName: bucket.appName, instanceId: app?.instanceId ?? 'default', environment: bucket.environment, sdkVersion: app?.sdkVersion ?? null,
      bucket: { start: bucket.timestamp, stop: bucket.timestamp, toggles: bucket.toggles },
    };
    const recorded = await recordMetrics(registry, { body: report, clientIp }, principal);
    if (!recorded.ok) return recorded;
  }
  return ok(undefined);
}

/** The entries grouped by application, environment and hour; a flag listed twice in a group has its counts added. */
function bucketsOf(entries: BulkMetricsBody['metrics']): Bucket[] {
  const buckets = new Map<string, Bucket>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.appName, entry.environment, entry.timestamp]);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { appName: entry.appName, environment: entry.environment, timestamp: entry.timestamp, toggles: {} };
      buckets.set(key, bucket);
    }
    // Flag names are not reserved words (the schema refuses them), so a plain object is a safe map here.
    const counts = bucket.toggles[entry.featureName] ??= { yes: 0, no: 0, variants: {} };
    counts.yes += entry.yes;
    counts.no += entry.no;
    for (const [variant, count] of Object.entries(entry.variants)) counts.variants[variant] = (counts.variants[variant] ?? 0) + count;
  }
  return [...buckets.values()];
}
