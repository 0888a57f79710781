/**
 * The applications and instances SDKs have registered (or reported metrics from). Pure state, no I/O; the
 * same published / pending layers as `usage-counts.ts`: a sighting is visible once a flush has written it.
 *
 * Bounded (`USAGE_BOUNDS`): at most 1,000 applications and 10,000 instances, each map kept in the order
 * entries were last seen, so the least recently seen goes first when a bound is passed; an instance unseen
 * for 48 h goes too, as Unleash drops instances older than two days.
 */
import { USAGE_BOUNDS } from '../limits.js';
import type { Plan } from './usage-records.js';

/** An application as stored and listed. */
export interface ClientApplication {
  appName: string;
  createdAt: string;
  seenAt: string;
  sdkVersion: string | null;
  /** Strategy names the SDK said it implements, from its latest registration. */
  strategies: string[];
  /** Projects whose tokens the application used, each with the environments. */
  usage: { project: string; environments: string[] }[];
}

/** One running SDK instance of an application. */
export interface ClientInstance {
  appName: string;
  instanceId: string;
  sdkVersion: string | null;
  clientIp: string | null;
  environment: string;
  createdAt: string;
  seenAt: string;
}

/** An SDK seen: a registration (with its strategies) or a metrics post. */
export interface ClientSighting {
  appName: string;
  instanceId: string;
  environment: string;
  /** The projects of the caller's token (`*` for all). */
  projects: readonly string[];
  sdkVersion: string | null;
  clientIp: string | null;
  at: string;
  /** Present on a registration. */
  strategies?: readonly string[];
}

export type ApplicationChange =
  | { kind: 'app'; app: ClientApplication }
  | { kind: 'app-removed'; appName: string }
  | { kind: 'instance'; instance: ClientInstance }
  | { kind: 'instance-removed'; appName: string; instanceId: string };

const instanceKey = (appName: string, instanceId: string) => `${appName}\u0000${instanceId}`;

/** `map` with `key` moved to the end, at most `max` entries (the first ones dropped). */
function touch<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}

/** `usage` with `environment` added under each of `projects`, each list bounded. */
function withUsage(usage: ClientApplication['usage'], projects: readonly string[], environment: string): ClientApplication['usage'] {
  const next = usage.map((entry) => ({ project: entry.project, environments: [...entry.environments] }));
  for (const project of projects) {
    let entry = next.find((e) => e.project === project);
    if (!entry) {
      if (next.length >= USAGE_BOUNDS.applicationUsage) continue;
      entry = { project, environments: [] };
      next.push(entry);
    }
    if (!entry.environments.includes(environment) && entry.environments.length < USAGE_BOUNDS.applicationUsage) entry.environments.push(environment);
  }
  return next;
}

/** Registered applications and instances. */
export class ClientApplications {
  private readonly apps = new Map<string, ClientApplication>();
  private readonly instances = new Map<string, ClientInstance>();
  private pending = new Map<string, ClientSighting[]>();
  private pendingInstances = new Map<string, ClientSighting>();

  /** Notes a sighting for the next flush (bounded like the published maps). */
  record(sighting: ClientSighting): void {
    const list = this.pending.get(sighting.appName) ?? [];
    // Only what merges differently is kept: the latest registration and the distinct (projects, environment) seen.
    const same = list.findIndex((s) => s.environment === sighting.environment && s.projects.join() === sighting.projects.join() && (s.strategies === undefined) === (sighting.strategies === undefined));
    if (same >= 0) list.splice(same, 1);
    if (list.length < USAGE_BOUNDS.applicationUsage) list.push(sighting);
    touch(this.pending, sighting.appName, list, USAGE_BOUNDS.applications);
    // A metrics post after a registration in the same flush keeps what only the registration told (SDK version, address).
    const key = instanceKey(sighting.appName, sighting.instanceId);
    const earlier = this.pendingInstances.get(key);
    const merged = earlier ? { ...sighting, sdkVersion: sighting.sdkVersion ?? earlier.sdkVersion, clientIp: sighting.clientIp ?? earlier.clientIp } : sighting;
    touch(this.pendingInstances, key, merged, USAGE_BOUNDS.instances);
  }

  /** The pending sightings merged into the published records, and what the bounds and the 48 h drop. */
  plan(now: number): Plan<ApplicationChange> & { changes: ApplicationChange[] } {
    const pending = this.pending;
    const pendingInstances = this.pendingInstances;
    this.pending = new Map();
    this.pendingInstances = new Map();
    const changes: ApplicationChange[] = [];
    const apps = new Map<string, ClientApplication>();
    for (const [appName, sightings] of pending) {
      let app = this.apps.get(appName);
      for (const s of sightings) {
        // What only the latest sighting tells comes from it, unless the stored record is later (another node's).
        const newer = !app || s.at >= app.seenAt;
        app = {
          appName,
          createdAt: app && app.createdAt < s.at ? app.createdAt : s.at,
          seenAt: app && app.seenAt > s.at ? app.seenAt : s.at,
          sdkVersion: (newer ? s.sdkVersion ?? app?.sdkVersion : app?.sdkVersion ?? s.sdkVersion) ?? null,
          strategies: s.strategies && (newer || !app?.strategies.length) ? [...s.strategies] : app?.strategies ?? [],
          usage: withUsage(app?.usage ?? [], s.projects, s.environment),
        };
      }
      apps.set(appName, app!);
      changes.push({ kind: 'app', app: app! });
    }
    const instances = new Map<string, ClientInstance>();
    for (const [key, s] of pendingInstances) {
      const before = this.instances.get(key);
      const newer = !before || s.at >= before.seenAt;
      const instance: ClientInstance = {
        appName: s.appName, instanceId: s.instanceId,
        sdkVersion: (newer ? s.sdkVersion ?? before?.sdkVersion : before.sdkVersion ?? s.sdkVersion) ?? null,
        clientIp: (newer ? s.clientIp ?? before?.clientIp : before.clientIp ?? s.clientIp) ?? null,
        environment: newer ? s.environment : before.environment,
        createdAt: before && before.createdAt < s.at ? before.createdAt : s.at,
        seenAt: newer ? s.at : before.seenAt,
      };
      instances.set(key, instance);
      changes.push({ kind: 'instance', instance });
    }
    // Least recently seen first: published entries not seen again, in their order, then the fresh ones.
    const droppedApps: string[] = [];
    let excess = this.apps.size + [...apps.keys()].filter((name) => !this.apps.has(name)).length - USAGE_BOUNDS.applications;
    for (const name of this.apps.keys()) {
      if (excess <= 0) break;
      if (apps.has(name)) continue;
      droppedApps.push(name);
      changes.push({ kind: 'app-removed', appName: name });
      excess -= 1;
    }
    const gone = new Set(droppedApps);
    const cutoff = new Date(now - USAGE_BOUNDS.retentionHours * 3_600_000).toISOString();
    const droppedInstances: string[] = [];
    let instanceExcess = this.instances.size + [...instances.keys()].filter((k) => !this.instances.has(k)).length - USAGE_BOUNDS.instances;
    for (const [key, instance] of this.instances) {
      if (instances.has(key)) continue;
      const expired = instance.seenAt < cutoff || gone.has(instance.appName);
      if (!expired && instanceExcess <= 0) continue;
      droppedInstances.push(key);
      changes.push({ kind: 'instance-removed', appName: instance.appName, instanceId: instance.instanceId });
      instanceExcess -= 1;
    }
    return {
      changes,
      apply: () => {
        for (const name of droppedApps) this.apps.delete(name);
        for (const key of droppedInstances) this.instances.delete(key);
        for (const [name, app] of apps) touch(this.apps, name, app, Number.MAX_SAFE_INTEGER);
        for (const [key, instance] of instances) touch(this.instances, key, instance, Number.MAX_SAFE_INTEGER);
      },
    };
  }

  /**
   * Drops a published application (with its instances), or one instance of it: a record the store could not
   * hold, so what is shown stays what a restart would show.
   */
  forget(appName: string, instanceId?: string): void {
    if (instanceId !== undefined) {
      this.instances.delete(instanceKey(appName, instanceId));
      return;
    }
    this.apps.delete(appName);
    for (const [key, instance] of this.instances) if (instance.appName === appName) this.instances.delete(key);
  }

  /**
   * Stored records, read at start in any order ({@link afterLoad} puts them in the order they were seen), or
   * from another node's flush (then the most recently seen: last).
   */
  loadApp(app: ClientApplication): void {
    touch(this.apps, app.appName, app, Number.MAX_SAFE_INTEGER);
  }

  loadInstance(instance: ClientInstance): void {
    touch(this.instances, instanceKey(instance.appName, instance.instanceId), instance, Number.MAX_SAFE_INTEGER);
  }

  /** Drops a stored application (not its instances) or one instance another node's flush removed. */
  remove(appName: string, instanceId?: string): void {
    if (instanceId === undefined) this.apps.delete(appName);
    else this.instances.delete(instanceKey(appName, instanceId));
  }

  /** Forgets every published record, before they are read from the store again (what is pending stays). */
  clearPublished(): void {
    this.apps.clear();
    this.instances.clear();
  }

  afterLoad(): void {
    const bySeen = <T extends { seenAt: string }>(a: [string, T], b: [string, T]) => (a[1].seenAt < b[1].seenAt ? -1 : a[1].seenAt > b[1].seenAt ? 1 : 0);
    for (const map of [this.apps, this.instances] as Map<string, { seenAt: string }>[]) {
      const sorted = [...map].sort(bySeen);
      map.clear();
      for (const [key, value] of sorted) map.set(key, value);
    }
  }

  /** Every published application, by name. */
  list(): ClientApplication[] {
    return [...this.apps.values()].sort((a, b) => (a.appName < b.appName ? -1 : a.appName > b.appName ? 1 : 0));
  }

  get(appName: string): ClientApplication | undefined {
    return this.apps.get(appName);
  }

  /** The published instances of an application, most recently seen first. */
  instancesOf(appName: string): ClientInstance[] {
    return [...this.instances.values()].filter((i) => i.appName === appName).reverse();
  }
}
