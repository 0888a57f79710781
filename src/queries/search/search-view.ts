/** The answer of a flag search, and one flag as it shows there (Unleash's `featureSearchResponseSchema`). */
import type { Environment } from '../../domain/service-state.js';
import { currentStage, type StageEntry } from '../../domain/flag-stages.js';
import type { Flag, Tag } from '../../domain/types.js';
import type { FlagSeen } from '../../domain/usage-records.js';

/** One environment of a flag in a search answer (Unleash's `featureSearchEnvironmentSchema`). */
export interface SearchEnvironment {
  name: string;
  enabled: boolean;
  type: string;
  sortOrder: number;
  variantCount: number;
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
}

/** One flag in a search answer (Unleash's `featureSearchResponseSchema`, without favourites). */
export interface SearchFeature {
  name: string;
  description: string;
  dependencyType: 'parent' | 'child' | null;
  type: string;
  project: string;
  stale: boolean;
  favorite: false;
  impressionData: boolean;
  createdAt: string;
  createdBy: { id: number; name: string; imageUrl: string };
  archivedAt: string | null;
  lastSeenAt: string | null;
  environments: SearchEnvironment[];
  segments: string[];
  tags: Tag[];
  /** The stage it is in now. */
  lifecycle: StageEntry;
}

/** A page of a search: its flags and how many matched in all. */
export interface SearchAnswer {
  features: SearchFeature[];
  total: number;
}

/** What {@link searchFeature} shows of a flag beside the flag itself. */
export interface SearchFeatureFacts {
  project: string;
  /** The service's environments, in order; the flag shows those its project is connected to. */
  environments: readonly Environment[];
  connected: ReadonlySet<string>;
  segmentNames: ReadonlyMap<number, string>;
  seen: FlagSeen;
  /** Whether another active flag of the project depends on it. */
  parent: boolean;
  /** The user who created it, when a user did and still exists. */
  creator: { id: number; name: string } | undefined;
}

/**
 * One flag as a search answers it.
 *
 * @example searchFeature(flag, { project: 'default', environments, connected, segmentNames, seen: NOT_SEEN, parent: false })
 */
export function searchFeature(flag: Flag, { project, environments, connected, segmentNames, seen, parent, creator }: SearchFeatureFacts): SearchFeature {
  const segments = new Set<string>();
  for (const env of Object.values(flag.environments)) for (const s of env.strategies) for (const sid of s.segments ?? []) {
    const name = segmentNames.get(sid);
    if (name !== undefined) segments.add(name);
  }
  return {
    name: flag.name,
    description: flag.description,
    dependencyType: parent ? 'parent' : (flag.dependencies?.length ?? 0) > 0 ? 'child' : null,
    type: flag.type,
    project,
    stale: flag.stale,
    favorite: false,
    impressionData: flag.impressionData,
    createdAt: flag.createdAt,
    createdBy: creator ? { ...creator, imageUrl: '' } : { id: 0, name: 'unknown', imageUrl: '' },
    archivedAt: flag.archivedAt,
    lastSeenAt: seen.lastSeenAt,
    environments: environments.filter((e) => connected.has(e.name)).map((e) => {
      const fe = flag.environments[e.name];
      return {
        name: e.name,
        enabled: fe?.enabled ?? false,
        type: e.type,
        sortOrder: e.sortOrder,
        variantCount: flag.variants.length,
        lastSeenAt: seen.environments.get(e.name) ?? null,
        hasStrategies: (fe?.strategies.length ?? 0) > 0,
        hasEnabledStrategies: fe?.strategies.some((s) => !s.disabled) ?? false,
      };
    }),
    segments: [...segments],
    tags: flag.tags ?? [],
    lifecycle: currentStage(flag),
  };
}
