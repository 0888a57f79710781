import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Registry } from '../actors/registry.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Constraint, Dependency, Flag, Strategy, Variant } from '../domain/types.js';
import { hasAnyTag, parseTagFilters } from './tags.query.js';

/** Encoded JSON, the type Hono sends as is. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** What a token may read: its projects (or all) and one environment (`*` for admin tokens). */
export interface ClientScope {
  projects: readonly string[] | '*';
  environment: string;
}

/** The query of `GET /api/client/features`, validated. */
export interface ClientQuery {
  project?: readonly string[] | undefined;
  namePrefix?: string | undefined;
  tag?: readonly string[] | undefined;
  /** Only used with an environment-wide (admin) token, as Unleash does. */
  environment?: string | undefined;
  /** Absent or older `Unleash-Client-Spec` than 4.2.0: segment constraints inlined, no top-level `segments`. */
  inlineSegmentConstraints: boolean;
}

/** A segment as the client API shows it. */
export interface ClientSegment {
  id: number;
  name: string;
  constraints: readonly Constraint[];
}

/** Where the client API finds segments (the service state holds them). */
export type SegmentSource = () => readonly ClientSegment[];

/** One answer: its bytes, its `ETag`, and the revision its content last changed at. */
export interface ClientFeaturesAnswer {
  body: Bytes;
  etag: string;
  revision: number;
}

const MAX_ANSWERS = 1000;

/**
 * `GET /api/client/features`, from the committed state. Each flag's client form is serialized once per flag
 * image and environment (records are immutable) and answers are assembled from those parts, then kept per
 * (scope, query) until the service's revision moves. The `ETag` is `"<query hash>:<revision>"` where the
 * revision is the one at which this answer's content last changed: a change elsewhere (another project,
 * another environment) moves the revision but not the ETag, so SDKs keep getting 304s.
 */
export class ClientFeaturesQuery {
  /** Client forms with segment ids, per flag image and environment. */
  private readonly parts = new WeakMap<Flag, Map<string, string>>();
  /** Client forms with segment constraints inlined: valid for one set of segments (`inlinedFor`), dropped when it changes. */
  private inlined = new WeakMap<Flag, Map<string, string>>();
  private inlinedFor = '';
  private readonly answers = new Map<string, { revision: number; contentHash: string; answer: ClientFeaturesAnswer }>();

  constructor(
    private readonly registry: Registry,
    private readonly segments: SegmentSource = () => [],
  ) {}

  /** The answer for a token's scope and a request's query. */
  answer(scope: ClientScope, query: ClientQuery): ClientFeaturesAnswer {
    const revision = this.registry.feed.revision;
    const resolved = resolveQuery(scope, query);
    const key = JSON.stringify(resolved);
    const cached = this.answers.get(key);
    if (cached && cached.revision === revision) return cached.answer;
    const segments = this.segments();
    const content = this.content(resolved, segments);
    const contentHash = createHash('sha1').update(content).digest('base64url');
    const queryHash = crc32(key).toString(16).padStart(8, '0');
    // One process keeps the revision at which this content first showed (an unrelated change leaves SDKs at
    // 304). Nodes sharing a store were first asked at different moments, so there the revision is the store's,
    // the same on every node at one revision: an SDK moved between nodes keeps its 304s (Unleash's rule too).
    const contentRevision = cached && cached.contentHash === contentHash && !this.registry.shared ? cached.answer.revision : revision;
    const etag = `"${queryHash}:${contentRevision}"`;
    const meta = JSON.stringify({ revisionId: contentRevision, etag, queryHash });
    const body = Buffer.from(`${content.slice(0, -1)},"meta":${meta}}`);
    const answer = { body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), etag, revision: contentRevision };
    if (this.answers.size >= MAX_ANSWERS && !cached) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, { revision, contentHash, answer });
    return answer;
  }

  private content(query: ResolvedQuery, segments: readonly ClientSegment[]): string {
    const byId = this.segmentMap(segments, query.inlineSegmentConstraints);
    const features: string[] = [];
    const used = new Set<number>();
    const projects = query.project.length === 1 && query.project[0] === '*' ? this.registry.projectIds() : query.project;
    for (const projectId of projects) {
      const state = this.registry.project(projectId)?.state;
      if (!state) continue;
      this.collect(state, query, byId, features, used);
    }
    const head = `{"version":2,"features":[${features.join(',')}],"query":${JSON.stringify(query)}`;
    if (query.inlineSegmentConstraints) return `${head}}`;
    // The segments the served strategies name, by name: an SDK needs no other, and a segment used only
    // elsewhere (another project or environment) then leaves this answer and its ETag alone.
    const served = segments.filter((s) => used.has(s.id)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    return `${head},"segments":${JSON.stringify(served.map((s) => ({ id: s.id, name: s.name, constraints: s.constraints })))}}`;
  }

  /** One flag of the scope, as `GET /api/client/features/:featureName` answers it; undefined when out of scope, unknown or archived. */
  feature(scope: ClientScope, query: ClientQuery, name: string): Bytes | undefined {
    const resolved = resolveQuery(scope, { ...query, namePrefix: undefined, tag: undefined });
    const projects = resolved.project.length === 1 && resolved.project[0] === '*' ? this.registry.projectIds() : resolved.project;
    for (const projectId of projects) {
      const state = this.registry.project(projectId)?.state;
      const flag = state?.flags.get(name);
      if (!state || !flag || flag.archived) continue;
      const segments = this.segmentMap(this.segments(), resolved.inlineSegmentConstraints);
      const body = Buffer.from(this.part(flag, state.meta.id, resolved, segments));
      return new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    }
    return undefined;
  }

  private collect(state: ProjectState, query: ResolvedQuery, segments: ReadonlyMap<number, ClientSegment>, into: string[], used: Set<number>): void {
    // Unleash's tag filters are alternatives: a flag with any of them is served.
    const wanted = parseTagFilters(query.tag ?? []);
    for (const flag of state.flags.values()) {
      if (flag.archived) continue;
      if (query.namePrefix !== undefined && !flag.name.startsWith(query.namePrefix)) continue;
      if (!hasAnyTag(flag, wanted)) continue;
      into.push(this.part(flag, state.meta.id, query, segments));
      if (!query.inlineSegmentConstraints) for (const id of segmentIdsServed(flag, query.environment)) used.add(id);
    }
  }

  /** Segments by id; for inlining, first drops the inlined forms made for another set of segments. */
  private segmentMap(segments: readonly ClientSegment[], inline: boolean): ReadonlyMap<number, ClientSegment> {
    if (inline) {
      const key = createHash('sha1').update(JSON.stringify(segments)).digest('base64url');
      if (key !== this.inlinedFor) {
        this.inlined = new WeakMap();
        this.inlinedFor = key;
      }
    }
    return new Map(segments.map((s) => [s.id, s]));
  }

  /** A flag's client form with segment ids in one environment (the delta API's form), from the same cache. */
  form(flag: Flag, project: string, environment: string): string {
    return this.part(flag, project, { project: [], environment, inlineSegmentConstraints: false }, new Map());
  }

  /** A flag's client form, serialized once per flag image, environment and segment form. */
  private part(flag: Flag, project: string, query: ResolvedQuery, segments: ReadonlyMap<number, ClientSegment>): string {
    const inline = query.inlineSegmentConstraints;
    const cache = inline ? this.inlined : this.parts;
    let byEnvironment = cache.get(flag);
    if (!byEnvironment) {
      byEnvironment = new Map();
      cache.set(flag, byEnvironment);
    }
    let part = byEnvironment.get(query.environment);
    if (part === undefined) {
      part = JSON.stringify(clientFeature(flag, project, query.environment, inline ? segments : undefined));
      byEnvironment.set(query.environment, part);
    }
    return part;
  }
}

/** The segment ids the served (enabled) strategies of a flag name in one environment. */
function* segmentIdsServed(flag: Flag, environment: string): Iterable<number> {
  const entry = Object.hasOwn(flag.environments, environment) ? flag.environments[environment] : undefined;
  for (const strategy of entry?.strategies ?? []) if (!strategy.disabled) yield* strategy.segments;
}

/** The query as answered: the token's scope wins over the request's (Unleash's `resolveQuery`); keys in Unleash's order. */
export interface ResolvedQuery {
  project: string[];
  namePrefix?: string;
  tag?: string[];
  environment: string;
  inlineSegmentConstraints: boolean;
}

export function resolveQuery(scope: ClientScope, query: ClientQuery): ResolvedQuery {
  const environment = scope.environment === '*' ? (query.environment ?? 'default') : scope.environment;
  // Stored tokens of every project hold `['*']`.
  const all = scope.projects === '*' || scope.projects.includes('*');
  const allowed = all ? undefined : new Set(scope.projects);
  const asked = query.project && query.project.length > 0 ? [...new Set(query.project)] : undefined;
  let project: string[];
  if (asked && asked.includes('*')) project = all ? ['*'] : [...allowed!].sort();
  else if (asked) project = asked.filter((p) => !allowed || allowed.has(p)).sort();
  else project = all ? ['*'] : [...allowed!].sort();
  return {
    project,
    ...(query.namePrefix === undefined ? {} : { namePrefix: query.namePrefix }),
    ...(query.tag === undefined || query.tag.length === 0 ? {} : { tag: [...query.tag].sort() }),
    environment,
    inlineSegmentConstraints: query.inlineSegmentConstraints,
  };
}


/** A flag as SDKs read it in one environment: strategies in order, disabled ones left out, no ids or titles. */
export function clientFeature(flag: Flag, project: string, environment: string, inline?: ReadonlyMap<number, ClientSegment>) {
  const entry = Object.hasOwn(flag.environments, environment) ? flag.environments[environment] : undefined;
  const strategies = entry ? [...entry.strategies].filter((s) => !s.disabled).sort((a, b) => a.sortOrder - b.sortOrder) : [];
  return {
    name: flag.name,
    type: flag.type,
    description: flag.description,
    project,
    enabled: entry?.enabled ?? false,
    stale: flag.stale,
    impressionData: flag.impressionData,
    strategies: strategies.map((s) => clientStrategy(s, inline)),
    variants: flag.variants.map(clientVariant),
    dependencies: (flag.dependencies ?? []).map(clientDependency),
  };
}

/** A parent condition as SDKs read it: `variants` only when it names some (an SDK then checks the parent's variant). */
const clientDependency = (d: Dependency) =>
  (d.variants !== undefined && d.variants.length > 0 ? { feature: d.feature, enabled: d.enabled, variants: d.variants } : { feature: d.feature, enabled: d.enabled });

function clientStrategy(strategy: Strategy, inline?: ReadonlyMap<number, ClientSegment>) {
  if (inline) {
    const constraints = [...strategy.constraints];
    for (const id of strategy.segments) constraints.push(...(inline.get(id)?.constraints ?? []));
    return { name: strategy.name, constraints, parameters: strategy.parameters, variants: strategy.variants };
  }
  const base = { name: strategy.name, constraints: strategy.constraints, parameters: strategy.parameters, variants: strategy.variants };
  return strategy.segments.length > 0 ? { ...base, segments: strategy.segments } : base;
}

const clientVariant = (variant: Variant) => {
  const { overrides, payload, ...rest } = variant;
  return { ...rest, ...(payload ? { payload } : {}), ...(overrides.length > 0 ? { overrides } : {}) };
};
