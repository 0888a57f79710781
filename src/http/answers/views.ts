/**
 * Views: what a route answers, shaped from state records. Typed by the response schemas of
 * `src/schemas/*-responses.schema.ts` (which the OpenAPI document is generated from). Fields are added with
 * Object.assign, never a spread that adds keys: docs/performance.md "No spread that adds keys".
 */
import type { ClientApplication, ClientInstance } from '../../domain/client-applications.js';
import type { Segment } from '../../domain/segment.js';
import type { Environment } from '../../domain/service-state.js';
import type { StageEntry } from '../../domain/flag-stages.js';
import type { Flag, Strategy, Variant } from '../../domain/types.js';
import type { FlagSeen } from '../../domain/usage-records.js';
import type { ArchivedFlagView, FlagDetailView, FlagRecordView } from '../../schemas/flag-responses.schema.js';
import type { SegmentView } from '../../schemas/service-responses.schema.js';
import type { ApplicationDetailView, ApplicationView } from '../../schemas/usage-responses.schema.js';

export * from '../../schemas/client-responses.schema.js';
export * from '../../schemas/flag-responses.schema.js';
export * from '../../schemas/project-responses.schema.js';
export * from '../../schemas/service-responses.schema.js';
export * from '../../schemas/usage-responses.schema.js';

/** The fields every flag record starts with, in Unleash's order. */
const recordHead = (flag: Flag, project: string) => ({
  name: flag.name,
  description: flag.description,
  type: flag.type,
  project,
  stale: flag.stale,
  impressionData: flag.impressionData,
  createdAt: flag.createdAt,
});

/**
 * The flag record (docs/admin-contract.md §2.3) plus `impressionData`: the answer of create, update, patch and clone.
 * `lastSeenAt` is the usage metrics' (the latest over environments), not part of the stored flag.
 */
export const flagRecord = (flag: Flag, project: string, seen: FlagSeen): FlagRecordView => Object.assign(recordHead(flag, project), {
  lastSeenAt: seen.lastSeenAt,
  variants: flag.variants.length > 0 ? flag.variants : null,
});

/**
 * An archived flag as `GET /api/admin/archive/features/:projectId` lists it: the record's fields without
 * `variants`, and `archivedAt` before `lastSeenAt` as Unleash orders them.
 */
export const archivedFlagRecord = (flag: Flag, project: string, seen: FlagSeen): ArchivedFlagView => Object.assign(recordHead(flag, project), {
  archivedAt: flag.archivedAt,
  lastSeenAt: seen.lastSeenAt,
});

/** The project's environments in the service's environment order. */
export function orderedEnvironments(all: Environment[], projectEnvironments: string[]): Environment[] {
  const connected = new Set(projectEnvironments);
  return all.filter((e) => connected.has(e.name));
}

const byOrder = (a: Strategy, b: Strategy) => a.sortOrder - b.sortOrder;

/** Strategies in `sortOrder`. */
export const strategiesInOrder = (strategies: readonly Strategy[]): Strategy[] => [...strategies].sort(byOrder);

/**
 * The single-flag GET: the record plus `archived`, every environment with its strategies and `lastSeenAt`,
 * its tags, its parents, `children` (the active flags that depend on it) and its lifecycle stage.
 */
export const flagDetail = (flag: Flag, lifecycle: StageEntry, project: string, environments: Environment[], seen: FlagSeen, children: string[] = []): FlagDetailView => Object.assign(flagRecord(flag, project, seen), {
  archived: flag.archived,
  archivedAt: flag.archivedAt,
  environments: environments.map((env) => {
    const entry = Object.hasOwn(flag.environments, env.name) ? flag.environments[env.name] : undefined;
    return {
      name: env.name,
      enabled: entry?.enabled ?? false,
      type: env.type,
      sortOrder: env.sortOrder,
      strategies: entry ? strategiesInOrder(entry.strategies) : [],
      lastSeenAt: seen.environments.get(env.name) ?? null,
    };
  }),
  tags: flag.tags ?? [],
  dependencies: flag.dependencies ?? [],
  children,
  lifecycle,
});

/** The answer of the variants endpoints (docs/admin-contract.md §4.14: a string version). */
export const variantsResponse = (variants: Variant[]) => ({ version: '1' as const, variants });

/** A segment as the API shows it (its `version` is internal). */
export const segmentView = (segment: Segment): SegmentView => ({
  id: segment.id,
  name: segment.name,
  description: segment.description,
  project: segment.project,
  constraints: segment.constraints,
  createdAt: segment.createdAt,
  createdBy: segment.createdBy,
});

/** An application as the list shows it (Unleash's `applicationSchema`). */
export const applicationView = (app: ClientApplication): ApplicationView => ({
  appName: app.appName,
  ...(app.sdkVersion === null ? {} : { sdkVersion: app.sdkVersion }),
  strategies: app.strategies,
  usage: app.usage,
  createdAt: app.createdAt,
  updatedAt: app.seenAt,
});

/** An application with its instances. */
export const applicationDetail = ({ app, instances }: { app: ClientApplication; instances: ClientInstance[] }): ApplicationDetailView => Object.assign(applicationView(app), {
  instances: instances.map((i) => ({
    appName: i.appName, instanceId: i.instanceId, sdkVersion: i.sdkVersion, clientIp: i.clientIp,
    environment: i.environment, createdAt: i.createdAt, lastSeen: i.seenAt,
  })),
  links: { self: `/api/admin/metrics/applications/${encodeURIComponent(app.appName)}` },
});
