/**
 * Views: what a route answers, shaped from state records. Typed by the response schemas of
 * `src/schemas/responses.schema.ts` (which the OpenAPI document is generated from).
 */
import type { Segment } from '../domain/segment.js';
import type { Environment } from '../domain/service-state.js';
import type { Flag, Strategy, Variant } from '../domain/types.js';
import type { FlagDetailView, FlagRecordView, SegmentView } from '../schemas/responses.schema.js';

export * from '../schemas/responses.schema.js';

/** The flag record of seed 2.3 plus `impressionData`: the answer of create, update, patch and clone. */
export const flagRecord = (flag: Flag, project: string): FlagRecordView => ({
  name: flag.name,
  description: flag.description,
  type: flag.type,
  project,
  stale: flag.stale,
  impressionData: flag.impressionData,
  createdAt: flag.createdAt,
  lastSeenAt: flag.lastSeenAt,
  variants: flag.variants.length > 0 ? flag.variants : null,
});

/** The project's environments in the service's environment order. */
export function orderedEnvironments(all: Environment[], projectEnvironments: string[]): Environment[] {
  const connected = new Set(projectEnvironments);
  return all.filter((e) => connected.has(e.name));
}

const byOrder = (a: Strategy, b: Strategy) => a.sortOrder - b.sortOrder;

/** Strategies in `sortOrder`. */
export const strategiesInOrder = (strategies: readonly Strategy[]): Strategy[] => [...strategies].sort(byOrder);

/** The single-flag GET: the record plus `archived` and every environment with its strategies. */
export const flagDetail = (flag: Flag, project: string, environments: Environment[]): FlagDetailView => ({
  ...flagRecord(flag, project),
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
    };
  }),
});

/** The answer of the variants endpoints (seed 4.14: a string version). */
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
