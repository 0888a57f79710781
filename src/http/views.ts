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

/**
 * What project health needs, per project state: the counts, and for each active, non-stale flag with a
 * lifetime the moment it becomes potentially stale, sorted, so asking at any time is a binary search.
 */
interface HealthFacts {
  total: number;
  stale: number;
  staleFrom: Float64Array;
}

function healthFacts(flags: Iterable<Flag>): HealthFacts {
  let total = 0;
  let stale = 0;
  const from: number[] = [];
  for (const flag of flags) {
    if (flag.archived) continue;
    total += 1;
    if (flag.stale) stale += 1;
    else {
      const lifetime = LIFETIME_DAYS[flag.type];
      if (lifetime !== null) from.push(Date.parse(flag.createdAt) + lifetime * DAY_MS);
    }
  }
  return { total, stale, staleFrom: Float64Array.from(from).sort() };
}

function healthAt(facts: HealthFacts, now: number): number {
  if (facts.total === 0) return 100;
  // Flags whose lifetime ended before `now` (strictly older than their lifetime) are potentially stale.
  let low = 0;
  let high = facts.staleFrom.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (facts.staleFrom[mid]! < now) low = mid + 1;
    else high = mid;
  }
  return Math.round(100 - (100 * facts.stale) / facts.total - (100 * low) / facts.total);
}

/**
 * API-DECISIONS "Overview": `round(100 - 100*stale/total - 100*potentiallyStale/total)` over active flags,
 * 100 when there are none; potentially stale = not stale and older than its type's lifetime.
 */
export const projectHealth = (flags: Iterable<Flag>, now: number): number => healthAt(healthFacts(flags), now);

/** Encoded JSON, the type Hono sends as is. */
export type Bytes = Uint8Array<ArrayBuffer>;

const utf8 = new TextEncoder();
const CLOSE = utf8.encode('}');

/** Joins encoded parts into one answer body. */
export function concatBytes(parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * The feature summaries of a project as a JSON array text, cached per project state version and
 * environment list, and per flag image (a changed flag re-serializes only itself). Lists and overviews
 * of large projects then cost a string join, not a walk over every strategy.
 */
export class SummaryCache {
  private readonly perFlag = new WeakMap<Flag, { key: string; json: string }>();
  private readonly perProject = new Map<string, { key: string; features: Bytes; list: Bytes }>();
  private readonly health = new Map<string, { version: number; facts: HealthFacts }>();

  private readonly overviews = new Map<string, { key: string; body: Bytes }>();

  /**
   * The overview answer, rebuilt only when the project, the environments or the health figure changed:
   * `head(health)` gives the overview without its features.
   */
  overview(state: ProjectState, environments: Environment[], environmentsVersion: number, now: number, head: (health: number) => object): Bytes {
    const health = this.healthOf(state, now);
    const key = `${state.version}:${environmentsVersion}:${health}`;
    const cached = this.overviews.get(state.meta.id);
    if (cached?.key === key) return cached.body;
    const json = JSON.stringify(head(health));
    const body = concatBytes([utf8.encode(`${json.slice(0, -1)},"features":`), this.features(state, environments, environmentsVersion), CLOSE]);
    this.overviews.set(state.meta.id, { key, body });
    return body;
  }

  /** The project's health now, from facts cached per state version. */
  healthOf(state: ProjectState, now: number): number {
    let cached = this.health.get(state.meta.id);
    if (cached?.version !== state.version) {
      cached = { version: state.version, facts: healthFacts(state.flags.values()) };
      this.health.set(state.meta.id, cached);
    }
    return healthAt(cached.facts, now);
  }

  /** The summaries of the project's active flags as a JSON array, encoded. */
  features(state: ProjectState, environments: Environment[], environmentsVersion: number): Bytes {
    return this.entry(state, environments, environmentsVersion).features;
  }

  /** The whole answer of the flag list, `{"version":2,"features":[...]}`, encoded once per state version. */
  list(state: ProjectState, environments: Environment[], environmentsVersion: number): Bytes {
    return this.entry(state, environments, environmentsVersion).list;
  }

  private entry(state: ProjectState, environments: Environment[], environmentsVersion: number) {
    const key = `${state.version}:${environmentsVersion}`;
    const cached = this.perProject.get(state.meta.id);
    if (cached?.key === key) return cached;
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
    const features = `[${parts.join(',')}]`;
    const entry = { key, features: utf8.encode(features), list: utf8.encode(`{"version":2,"features":${features}}`) };
    this.perProject.set(state.meta.id, entry);
    return entry;
  }
}

/**
 * A feature summary: exactly the fields of seed 2.2. Lists of large projects are mostly these, so nothing
 * beyond the contract is added to them.
 */
const summary = (flag: Flag, environments: Environment[]) => ({
  name: flag.name,
  type: flag.type,
  stale: flag.stale,
  createdAt: flag.createdAt,
  lastSeenAt: flag.lastSeenAt,
  environments: environments.map((env) => ({
    name: env.name,
    displayName: env.name,
    enabled: flag.environments[env.name]?.enabled ?? false,
  })),
});
