/**
 * The frontend API's and the playground's reads: flags compiled once per (project, environment) and state
 * change, then evaluated or explained per request. A project's compiled flags are kept until its state
 * version or the service's sequence number (segments live in the service) moves; nothing on the request
 * path reads a stored flag again.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Registry } from '../../actors/registry.js';
import {
  compileFlags,
  ENABLED_WITHOUT_VARIANT,
  evaluate,
  explain,
  flagDefinition,
  type CompiledFlag,
  type EvaluatedVariant,
  type EvaluationContext,
  type FlagExplanation,
  type SegmentDefinition,
} from '../../domain/evaluation/index.js';
import type { ProjectState } from '../../domain/project-state.js';

/** One frontend toggle, as `unleash-proxy-client` reads it. */
export interface FrontendToggle {
  name: string;
  enabled: true;
  variant: EvaluatedVariant;
  impressionData: boolean;
}

/** The flags a frontend or admin token may see: its projects (or all) in one environment. */
export interface EvaluationScope {
  projects: readonly string[] | '*';
  environment: string;
}

interface Compiled {
  stateVersion: number;
  serviceSeq: number;
  flags: Map<string, CompiledFlag>;
  /** The same flags in name order, and beside each its toggle encoded for the plain "on, no variant" answer, once asked. */
  list: CompiledFlag[];
  plain: (EncodedToggle | undefined)[];
}

const TOGGLES_OPEN = Buffer.from('{"toggles":[');
const TOGGLES_CLOSE = Buffer.from(']}');
/** Random per process: the first words hashed into every frontend `ETag`, so toggle ids of an earlier process never match. */
const ETAG_SEED = new Uint32Array(randomBytes(16).buffer);

/** The tag of a list of toggle ids: SHA-1 (one-shot `crypto.hash`) of the process's seed and the ids, in order. */
function idsTag(parts: readonly EncodedToggle[]): string {
  const words = new Uint32Array(ETAG_SEED.length + parts.length);
  words.set(ETAG_SEED);
  for (let i = 0; i < parts.length; i += 1) words[ETAG_SEED.length + i] = parts[i]!.id;
  return hash('sha1', words, 'base64url');
}

/** One toggle of a frontend answer, encoded once: its JSON bytes (and after a comma) and an id unique to them in this process. */
interface EncodedToggle {
  name: string;
  bytes: Buffer;
  afterComma: Buffer;
  id: number;
}

/** At most this many (project, environment) pairs compiled at once; the oldest is dropped first. */
const MAX_COMPILED = 5000;

export class EvaluationQuery {
  private readonly compiled = new Map<string, Compiled>();

  constructor(private readonly registry: Registry) {}

  /** The compiled flags of a project in an environment (archived flags left out); rebuilt only after a change. */
  flagsOf(projectId: string, environment: string): Map<string, CompiledFlag> | undefined {
    return this.compiledOf(projectId, environment)?.flags;
  }

  private compiledOf(projectId: string, environment: string): Compiled | undefined {
    const state = this.registry.project(projectId)?.state;
    if (!state) return undefined;
    const key = `${projectId}\u0000${environment}`;
    const serviceSeq = this.registry.service.seq;
    const cached = this.compiled.get(key);
    if (cached && cached.stateVersion === state.version && cached.serviceSeq === serviceSeq) return cached;
    const flags = this.compile(state, environment);
    this.compiled.delete(key);
    if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
    const entry: Compiled = { stateVersion: state.version, serviceSeq, flags, list: [...flags.values()], plain: [] };
    this.compiled.set(key, entry);
    return entry;
  }

  private compile(state: ProjectState, environment: string): Map<string, CompiledFlag> {
    const segments = this.registry.service.state.segments;
    const lookup = (id: number): SegmentDefinition | undefined => (Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined);
    // In name order, so one project's answers need no sorting per request.
    const definitions = [...state.flags.values()].filter((f) => !f.archived).map((f) => flagDefinition(f, environment))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return compileFlags(definitions, lookup);
  }

  /** The projects of `scope` that exist, sorted. */
  projectsOf(scope: EvaluationScope): string[] {
    const all = this.registry.projectIds();
    if (scope.projects === '*' || scope.projects.includes('*')) return all.sort();
    const known = new Set(all);
    return [...new Set(scope.projects)].filter((p) => known.has(p)).sort();
  }

  /** `/api/frontend`: the flags enabled for `context` in the scope, each with its variant. */
  frontend(scope: EvaluationScope, context: EvaluationContext): FrontendToggle[] {
    const toggles: FrontendToggle[] = [];
    for (const projectId of this.projectsOf(scope)) {
      const flags = this.flagsOf(projectId, scope.environment);
      if (!flags) continue;
      for (const flag of flags.values()) {
        const result = evaluate(flag, context, flags);
        if (result.enabled) toggles.push({ name: flag.name, enabled: true, variant: result.variant, impressionData: flag.impressionData });
      }
    }
    return toggles.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * `/api/frontend`'s body, `{"toggles":[...]}`, as UTF-8 bytes: the same text `JSON.stringify({toggles: frontend(...)})`
   * gives, without building the toggles. Each (compiled flag, variant answer) toggle is encoded once and reused
   * (the engine's variant answers are frozen and shared), and the body is one copy of those bytes.
   * Hand-kept for speed: docs/performance.md "Frontend body from encoded toggles".
   */
  frontendBody(scope: EvaluationScope, context: EvaluationContext): Buffer {
    return this.frontendAnswer(scope, context).body;
  }

  /**
   * {@link frontendBody} and its weak `ETag`. The tag hashes the ids of the encoded toggles the body is made of
   * (each id stands for one encoding, never reused in this process) rather than the body's bytes, seeded at random
   * per process: the same tag means the same bytes. A restart, or a recompile after a change elsewhere in the
   * project, changes the tag (one 200 where a 304 could have been), never the other way round.
   */
  frontendAnswer(scope: EvaluationScope, context: EvaluationContext): { body: Buffer; etag: string } {
    const projects = this.projectsOf(scope);
    const parts: EncodedToggle[] = [];
    for (const projectId of projects) {
      const compiled = this.compiledOf(projectId, scope.environment);
      if (!compiled) continue;
      const { flags, list, plain } = compiled;
      for (let i = 0; i < list.length; i += 1) {
        const flag = list[i]!;
        const result = evaluate(flag, context, flags);
        if (!result.enabled) continue;
        // Most answers are "on, no variant": its encoding sits beside the flag, no lookup by variant.
        parts.push(result.variant === ENABLED_WITHOUT_VARIANT ? (plain[i] ??= this.encoded(flag, result.variant)) : this.encoded(flag, result.variant));
      }
    }
    // Each project's flags are in name order already; several projects are merged.
    if (projects.length > 1) parts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let length = TOGGLES_OPEN.length + TOGGLES_CLOSE.length;
    for (let i = 0; i < parts.length; i += 1) length += i === 0 ? parts[i]!.bytes.length : parts[i]!.afterComma.length;
    const body = Buffer.allocUnsafe(length);
    let at = TOGGLES_OPEN.copy(body, 0);
    for (let i = 0; i < parts.length; i += 1) at += (i === 0 ? parts[i]!.bytes : parts[i]!.afterComma).copy(body, at);
    TOGGLES_CLOSE.copy(body, at);
    return { body, etag: `W/"${idsTag(parts)}"` };
  }

  private readonly toggles = new WeakMap<CompiledFlag, WeakMap<EvaluatedVariant, EncodedToggle>>();
  private nextToggleId = 0;

  /** One toggle's JSON bytes and their id, made once per compiled flag and (frozen, shared) variant answer. */
  private encoded(flag: CompiledFlag, variant: EvaluatedVariant): EncodedToggle {
    let byVariant = this.toggles.get(flag);
    if (byVariant === undefined) {
      byVariant = new WeakMap();
      this.toggles.set(flag, byVariant);
    }
    let toggle = byVariant.get(variant);
    if (toggle === undefined) {
      const afterComma = Buffer.from(`,{"name":${JSON.stringify(flag.name)},"enabled":true,"variant":${JSON.stringify(variant)},"impressionData":${flag.impressionData}}`);
      // Ids wrap after 2^32 encodings; the nonce changes with the process, never within it.
      toggle = { name: flag.name, bytes: afterComma.subarray(1), afterComma, id: this.nextToggleId = (this.nextToggleId + 1) >>> 0 };
      if (Object.isFrozen(variant)) byVariant.set(variant, toggle);
    }
    return toggle;
  }

  /** The playground: every active flag of the projects in the environment, explained for `context`. */
  playground(scope: EvaluationScope, context: EvaluationContext): (FlagExplanation & { projectId: string })[] {
    const features: (FlagExplanation & { projectId: string })[] = [];
    for (const projectId of this.projectsOf(scope)) {
      const flags = this.flagsOf(projectId, scope.environment);
      if (!flags) continue;
      for (const flag of flags.values()) features.push(Object.assign(explain(flag, context, flags), { projectId }));
    }
    return features.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

/** A session id for a context without one, as Unleash gives it: a random integer below 10^9, per request. */
export const randomSessionId = (): string => String(Math.floor(Math.random() * 1_000_000_000));

/** The weak `ETag` of an answer's bytes (one-shot `crypto.hash`: no hasher object per answer). */
export const weakEtagOf = (body: string | Uint8Array): string => `W/"${hash('sha1', body, 'base64url')}"`;
