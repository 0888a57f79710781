import type { Environment } from '../domain/service-state.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Flag, Strategy, Variant } from '../domain/types.js';

/** The flag record of seed 2.3 plus `impressionData`: the answer of create, update, patch and clone. */
export const flagRecord = (flag: Flag, project: string) => ({
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

/** The single-flag GET: the record plus `archived` and every environment with its strategies. */
export const flagDetail = (flag: Flag, project: string, environments: Environment[]) => ({
  ...flagRecord(flag, project),
  archived: flag.archived,
  archivedAt: flag.archivedAt,
  environments: environments.map((env) => {
    const entry = flag.environments[env.name];
    return {
      name: env.name,
      enabled: entry?.enabled ?? false,
      type: env.type,
      sortOrder: env.sortOrder,
      strategies: entry ? [...entry.strategies].sort(byOrder) : [],
    };
  }),
});

/** The answer of the variants endpoints (seed 4.14: a string version). */
export const variantsResponse = (variants: Variant[]) => ({ version: '1', variants });

const LIFETIME_DAYS: Record<Flag['type'], number | null> = {
  release: 40, experiment: 40, operational: 7, 'kill-switch': null, permission: null,
};
const DAY_MS = 24 * 60 * 60 * 1000;

/** API-DECISIONS "Overview": health over active flags, computed when asked. */
export function projectHealth(flags: Iterable<Flag>, now: number): number {
  let total = 0;
  let stale = 0;
  let potentiallyStale = 0;
  for (const flag of flags) {
    if (flag.archived) continue;
    total += 1;
    if (flag.stale) stale += 1;
    else {
      const lifetime = LIFETIME_DAYS[flag.type];
      if (lifetime !== null && now - Date.parse(flag.createdAt) > lifetime * DAY_MS) potentiallyStale += 1;
    }
  }
  if (total === 0) return 100;
  return Math.round(100 - (100 * stale) / total - (100 * potentiallyStale) / total);
}

/**
 * The feature summaries of a project as a JSON array text, cached per project state version and
 * environment list, and per flag image (a changed flag re-serializes only itself). Lists and overviews
 * of large projects then cost a string join, not a walk over every strategy.
 */
export class SummaryCache {
  private readonly perFlag = new WeakMap<Flag, { key: string; json: string }>();
  private readonly perProject = new Map<string, { key: string; json: string }>();

  featuresJson(state: ProjectState, environments: Environment[], environmentsVersion: number): string {
    const key = `${state.version}:${environmentsVersion}`;
    const cached = this.perProject.get(state.meta.id);
    if (cached?.key === key) return cached.json;
    const envs = orderedEnvironments(environments, state.meta.environments);
    const envKey = `${environmentsVersion}:${state.meta.environments.join(',')}`;
    const parts: string[] = [];
    for (const flag of state.flags.values()) {
      if (flag.archived) continue;
      let cachedFlag = this.perFlag.get(flag);
      if (cachedFlag?.key !== envKey) {
        cachedFlag = { key: envKey, json: JSON.stringify(summary(flag, envs)) };
        this.perFlag.set(flag, cachedFlag);
      }
      parts.push(cachedFlag.json);
    }
    const jsonText = `[${parts.join(',')}]`;
    this.perProject.set(state.meta.id, { key, json: jsonText });
    return jsonText;
  }
}

/** A feature summary (seed 2.2). */
const summary = (flag: Flag, environments: Environment[]) => ({
  name: flag.name,
  type: flag.type,
  stale: flag.stale,
  createdAt: flag.createdAt,
  lastSeenAt: flag.lastSeenAt,
  impressionData: flag.impressionData,
  environments: environments.map((env) => ({
    name: env.name,
    displayName: env.name,
    enabled: flag.environments[env.name]?.enabled ?? false,
    type: env.type,
  })),
});
