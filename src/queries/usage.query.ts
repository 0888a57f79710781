/**
 * Reads of SDK usage, from what the usage actor has published (written by a flush): counts are visible at
 * most `METRICS_FLUSH_SECONDS` after the post that brought them, as Unleash's are after its own 5 s to 30 s
 * batches.
 */
import type { Registry } from '../actors/registry.js';
import type { ClientApplication, ClientInstance } from '../domain/client-applications.js';
import { fail } from '../domain/errors.js';
import { HOUR_MS, hourStart, oldestKeptHour, type FlagSeen } from '../domain/usage-records.js';
import { USAGE_BOUNDS } from '../limits.js';
import { failed, ok, type Result } from '../domain/result.js';

export type { FlagSeen };

/** When a flag was last seen (its own `lastSeenAt` and each environment's). */
export const flagSeen = (registry: Registry, project: string, flag: string): FlagSeen => registry.usage.counts.seen(project, flag);

/** What the flag list and overview need of a project's usage: a version to key caches on, and each flag's `lastSeenAt`. */
export interface ProjectUsage {
  version: number;
  lastSeenAt(flag: string): string | null;
}

/** The usage of project `project` as the flag list and overview read it. */
export function projectUsage(registry: Registry, project: string): ProjectUsage {
  const counts = registry.usage.counts;
  return { version: counts.version(project), lastSeenAt: (flag) => counts.seen(project, flag).lastSeenAt };
}

/** One hourly bucket of a flag in one environment (Unleash's `featureEnvironmentMetricsSchema`). */
export interface HourlyUsage {
  featureName: string;
  environment: string;
  timestamp: string;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/** The projects that hold a flag of that name; 404 when none does. */
function projectsWith(registry: Registry, featureName: string): Result<string[]> {
  const projects = registry.projectIds().filter((id) => registry.project(id)!.state.flags.has(featureName));
  return projects.length > 0 ? ok(projects) : failed(fail('NotFoundError', `Could not find feature flag "${featureName}"`));
}

/** The flag's hourly buckets from `from` on, summed over the projects that hold a flag of that name, by (hour, environment). */
function hourly(registry: Registry, featureName: string, projects: string[], from: number): Map<string, HourlyUsage> {
  const byKey = new Map<string, HourlyUsage>();
  for (const project of projects) {
    for (const cell of registry.usage.counts.cells(project, featureName)) {
      if (cell.hour < from) continue;
      const key = `${cell.hour}/${cell.environment}`;
      let entry = byKey.get(key);
      if (!entry) {
        entry = { featureName, environment: cell.environment, timestamp: new Date(cell.hour).toISOString(), yes: 0, no: 0, variants: {} };
        byKey.set(key, entry);
      }
      entry.yes += cell.yes;
      entry.no += cell.no;
      for (const [name, count] of Object.entries(cell.variants)) entry.variants[name] = (Object.hasOwn(entry.variants, name) ? entry.variants[name]! : 0) + count;
    }
  }
  return byKey;
}

/**
 * `GET /api/admin/client-metrics/features/:featureName` (Unleash's `featureUsageSchema`): the counts of the
 * current hour per environment, and the applications that reported the flag in the last 48 h.
 */
export function featureUsage(registry: Registry, featureName: string, now = Date.now()): Result<{ featureName: string; lastHourUsage: Omit<HourlyUsage, 'featureName' | 'variants'>[]; seenApplications: string[] }> {
  const found = projectsWith(registry, featureName);
  if (!found.ok) return found;
  const lastHourUsage = [...hourly(registry, featureName, found.value, now - HOUR_MS).values()]
    .map(({ environment, timestamp, yes, no }) => ({ environment, timestamp, yes, no }))
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.environment.localeCompare(b.environment));
  const since = new Date(now - USAGE_BOUNDS.retentionHours * HOUR_MS).toISOString();
  const apps = new Set<string>();
  for (const project of found.value) {
    for (const [app, at] of registry.usage.counts.apps(project, featureName)) if (at >= since) apps.add(app);
  }
  return ok({ featureName, lastHourUsage, seenApplications: [...apps].sort() });
}

/**
 * `GET /api/admin/client-metrics/features/:featureName/raw` (Unleash's `featureMetricsSchema`): one entry per
 * hour of the last `hoursBack` (the current one included) and environment that reported the flag, zeros
 * where nothing was counted, oldest first. Counts are per environment, not per application.
 */
export function featureMetrics(registry: Registry, featureName: string, hoursBack: number = USAGE_BOUNDS.retentionHours, now = Date.now()): Result<{ data: HourlyUsage[] }> {
  const found = projectsWith(registry, featureName);
  if (!found.ok) return found;
  const first = Math.max(hourStart(now) - (hoursBack - 1) * HOUR_MS, oldestKeptHour(now));
  const counted = hourly(registry, featureName, found.value, first);
  const environments = [...new Set([...counted.values()].map((e) => e.environment))].sort();
  const data: HourlyUsage[] = [];
  for (let hour = first; hour <= hourStart(now); hour += HOUR_MS) {
    for (const environment of environments) {
      data.push(counted.get(`${hour}/${environment}`) ?? { featureName, environment, timestamp: new Date(hour).toISOString(), yes: 0, no: 0, variants: {} });
    }
  }
  return ok({ data });
}

/** Every registered application, by name. */
export const applications = (registry: Registry): ClientApplication[] => registry.usage.applications.list();

/** One application with its instances (most recently seen first); 404 when unknown. */
export function applicationByName(registry: Registry, appName: string): Result<{ app: ClientApplication; instances: ClientInstance[] }> {
  const app = registry.usage.applications.get(appName);
  if (!app) return failed(fail('NotFoundError', `Could not find application with appName "${appName}"`));
  return ok({ app, instances: registry.usage.applications.instancesOf(appName) });
}
