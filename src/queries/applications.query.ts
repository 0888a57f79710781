/**
 * The console's reads of registered applications: a page of them with their instances summed up, the flags one
 * application reported, and the applications that reported one flag. Read from what the usage actor has
 * published (`usage.query.ts` serves the same data to the API).
 */
import type { Registry } from '../actors/registry.js';
import type { ClientApplication, ClientInstance } from '../domain/client-applications.js';
import { HOUR_MS } from '../domain/usage-records.js';
import { USAGE_BOUNDS } from '../limits.js';
import { pageOf, type ListPage } from './paging.js';

/** Whether `name` holds `q`, in any case (no `q`: every name). */
export const nameMatches = (name: string, q: string | undefined): boolean => q === undefined || name.toLowerCase().includes(q.toLowerCase());

/** An application as the list shows it. */
export interface ApplicationRow {
  appName: string;
  instances: number;
  /** Distinct SDK versions of its instances (its registration's when no instance names one). */
  sdkVersions: string[];
  /** Environments its tokens were for, from its usage and its instances. */
  environments: string[];
  seenAt: string;
}

function rowOf(app: ClientApplication, instances: readonly ClientInstance[]): ApplicationRow {
  const versions = new Set(instances.map((i) => i.sdkVersion).filter((s): s is string => s !== null));
  if (versions.size === 0 && app.sdkVersion !== null) versions.add(app.sdkVersion);
  const environments = new Set(app.usage.flatMap((u) => u.environments));
  for (const instance of instances) environments.add(instance.environment);
  return { appName: app.appName, instances: instances.length, sdkVersions: [...versions].sort(), environments: [...environments].sort(), seenAt: app.seenAt };
}

/**
 * One page of the registered applications whose name holds `q`, by name; instances are looked at for the
 * page's rows only (applications and instances are bounded: `USAGE_BOUNDS`).
 */
export function applicationPage(registry: Registry, query: { q?: string | undefined; page: number }, pageSize: number): ListPage<ApplicationRow> {
  const known = registry.usage.applications;
  const matching = known.list().filter((app) => nameMatches(app.appName, query.q));
  const page = pageOf(matching, query.page, pageSize);
  return { ...page, rows: page.rows.map((app) => rowOf(app, known.instancesOf(app.appName))) };
}

/** A flag an application reported, and when it last did. */
export interface AppFlag {
  project: string;
  flag: string;
  seenAt: string;
}

const since = (now: number) => new Date(now - USAGE_BOUNDS.retentionHours * HOUR_MS).toISOString();

/**
 * The flags `appName` reported in the last 48 hours (as the API's `seenApplications` counts them), most
 * recently seen first. Scans the remembered applications of every existing flag.
 */
export function applicationFlags(registry: Registry, appName: string, now = Date.now()): AppFlag[] {
  const from = since(now);
  const found: AppFlag[] = [];
  for (const project of registry.projectIds()) {
    const flags = registry.project(project)?.state.flags;
    if (!flags) continue;
    for (const flag of flags.keys()) {
      const at = registry.usage.counts.apps(project, flag).get(appName);
      if (at !== undefined && at >= from) found.push({ project, flag, seenAt: at });
    }
  }
  return found.sort((a, b) => (a.seenAt > b.seenAt ? -1 : a.seenAt < b.seenAt ? 1 : a.flag < b.flag ? -1 : a.flag > b.flag ? 1 : 0));
}

/** The applications that reported flag `flag` of `project` in the last 48 hours, most recently first. */
export function flagApplications(registry: Registry, project: string, flag: string, now = Date.now()): { appName: string; seenAt: string }[] {
  const from = since(now);
  return [...registry.usage.counts.apps(project, flag)]
    .filter(([, at]) => at >= from)
    .map(([appName, seenAt]) => ({ appName, seenAt }))
    .sort((a, b) => (a.seenAt > b.seenAt ? -1 : a.seenAt < b.seenAt ? 1 : a.appName < b.appName ? -1 : 1));
}
