import type { Registry } from '../../actors/registry.js';
import { resolveQuery, type Bytes, type ClientFeaturesQuery, type ClientQuery, type ClientScope, type ResolvedQuery, type SegmentSource } from './client-features.query.js';

/**
 * What a client at some revision needs, as the delta API and the streams answer it:
 * - `hydration`: every flag of its scope and every segment (its revision was absent, zero, not a number,
 *   from the future, older than the history, or the history holds a change no delta expresses);
 * - `events`: the `feature-updated`, `feature-removed`, `segment-updated`, `segment-removed` events after it;
 * - `none`: nothing it can see changed.
 * `body` is the JSON `{"events":[...]}` (empty for `none`); `revision` is the service's revision it brings the
 * client to (the `ETag` and the SSE `id`).
 */
export interface DeltaAnswer {
  kind: 'hydration' | 'events' | 'none';
  revision: number;
  body: string;
}

/** The query of the delta API: that of `/api/client/features`; deltas always name segments by id. */
export type DeltaQuery = Omit<ClientQuery, 'inlineSegmentConstraints'>;

/** Longest revision text read (a safe integer has at most 16 digits). */
const MAX_REVISION_DIGITS = 16;

/**
 * The revision a client presents (`If-None-Match` of the delta API, `Last-Event-ID` of a stream): digits,
 * optionally quoted or weak (`W/"12"`); anything else (absent, a list, a word, too long) is undefined, which
 * is answered with a hydration.
 *
 * @example parseRevision('"42"') // 42
 */
export function parseRevision(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,16})"?\s*$/.exec(text);
  if (!match || match[1]!.length > MAX_REVISION_DIGITS) return undefined;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) ? n : undefined;
}

const MAX_CACHED = 1000;

/**
 * `GET /api/client/delta` and the streams' messages, from the feed's bounded history and the committed state:
 * the history names what changed after a revision, the state gives each named flag's current client form (a
 * flag changed three times since is sent once, as it is now). A hydration is built from the cached client forms
 * of `ClientFeaturesQuery` and kept per (scope, query) until the revision moves.
 *
 * Reads are consistent: the actors publish their state before the feed counts the batch, both synchronously,
 * so a state read together with `feed.revision` holds exactly the changes up to that revision.
 */
export class ClientDeltaQuery {
  /** Hydrations per query key at one revision each. */
  private readonly hydrations = new Map<string, DeltaAnswer>();
  /** Event answers per (query key, presented revision), all at revision `deltasAt`: SDKs equally behind share one. */
  private deltas = new Map<string, DeltaAnswer>();
  private deltasAt = -1;
  private readonly encoded = new WeakMap<DeltaAnswer, Bytes>();

  constructor(
    private readonly registry: Registry,
    private readonly features: ClientFeaturesQuery,
    private readonly segments: SegmentSource,
  ) {}

  /** The resolved query and a key for it: clients with equal keys get equal answers (the streams share them). */
  resolve(scope: ClientScope, query: DeltaQuery): { resolved: ResolvedQuery; key: string } {
    const resolved = resolveQuery(scope, { ...query, inlineSegmentConstraints: false });
    return { resolved, key: JSON.stringify(resolved) };
  }

  /** What a client of `resolved` that has seen `from` (undefined: nothing) needs now. */
  since(resolved: ResolvedQuery, key: string, from: number | undefined): DeltaAnswer {
    const revision = this.registry.feed.revision;
    // A client ahead of this node (it read a node further along the shared log): nothing for it until this
    // node passes its revision, never this node's older state. On one process a revision from the future is
    // one from before a restart renumbered: a hydration.
    if (from !== undefined && from > revision && this.registry.shared) return { kind: 'none', revision: from, body: '' };
    if (from === undefined || from <= 0 || from > revision) return this.hydration(resolved, key, revision);
    if (from === revision) return { kind: 'none', revision, body: '' };
    if (this.deltasAt !== revision) {
      this.deltas = new Map();
      this.deltasAt = revision;
    }
    const id = `${from}|${key}`;
    const known = this.deltas.get(id);
    if (known) return known;
    const answer = this.changes(resolved, key, from, revision);
    if (this.deltas.size >= MAX_CACHED) this.deltas.delete(this.deltas.keys().next().value!);
    this.deltas.set(id, answer);
    return answer;
  }

  /** The answer's body as bytes, encoded once per answer (so its gzip copy is made once too). */
  bytes(answer: DeltaAnswer): Bytes {
    let bytes = this.encoded.get(answer);
    if (!bytes) {
      const buffer = Buffer.from(answer.body);
      bytes = new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
      this.encoded.set(answer, bytes);
    }
    return bytes;
  }

  private changes(resolved: ResolvedQuery, key: string, from: number, revision: number): DeltaAnswer {
    const all = resolved.project.length === 1 && resolved.project[0] === '*';
    const projects = new Set(resolved.project);
    // Latest revision that touched each flag and segment, so each is sent once, in the order of its last change.
    const flags = new Map<string, { project: string; name: string; eventId: number }>();
    const segments = new Map<number, number>();
    const outcome = this.registry.feed.history.changesSince(from, revision, (touch, eventId) => {
      if (touch.environment !== null && touch.environment !== resolved.environment) return;
      if (!all && !projects.has(touch.project)) return;
      if (!this.matches(resolved, touch.name)) return;
      const id = `${touch.project}\u0000${touch.name}`;
      flags.delete(id);
      flags.set(id, { project: touch.project, name: touch.name, eventId });
    }, (id, eventId) => {
      segments.delete(id);
      segments.set(id, eventId);
    });
    if (outcome !== 'changes') return this.hydration(resolved, key, revision);
    if (flags.size === 0 && segments.size === 0) return { kind: 'none', revision, body: '' };
    const events: { eventId: number; json: string }[] = [];
    const current = new Map(this.segments().map((s) => [s.id, s]));
    for (const [id, eventId] of segments) {
      const segment = current.get(id);
      events.push({ eventId, json: segment
        ? `{"type":"segment-updated","eventId":${eventId},"segment":${JSON.stringify({ id: segment.id, name: segment.name, constraints: segment.constraints })}}`
        : `{"type":"segment-removed","eventId":${eventId},"segmentId":${id}}` });
    }
    for (const { project, name, eventId } of flags.values()) {
      const flag = this.registry.project(project)?.state.flags.get(name);
      events.push({ eventId, json: flag && !flag.archived
        ? `{"type":"feature-updated","eventId":${eventId},"feature":${this.features.form(flag, project, resolved.environment)}}`
        : `{"type":"feature-removed","eventId":${eventId},"featureName":${JSON.stringify(name)},"project":${JSON.stringify(project)}}` });
    }
    events.sort((a, b) => a.eventId - b.eventId);
    return { kind: 'events', revision, body: `{"events":[${events.map((e) => e.json).join(',')}]}` };
  }

  /** Whether a flag name passes the query's filters (tags: no flag carries one yet, as on `/api/client/features`). */
  private matches(query: ResolvedQuery, name: string): boolean {
    if (query.tag !== undefined && query.tag.length > 0) return false;
    return query.namePrefix === undefined || name.startsWith(query.namePrefix);
  }

  private hydration(resolved: ResolvedQuery, key: string, revision: number): DeltaAnswer {
    const cached = this.hydrations.get(key);
    if (cached && cached.revision === revision) return cached;
    const features: string[] = [];
    const projects = resolved.project.length === 1 && resolved.project[0] === '*' ? this.registry.projectIds() : resolved.project;
    for (const project of projects) {
      const state = this.registry.project(project)?.state;
      if (!state) continue;
      for (const flag of state.flags.values()) {
        if (flag.archived || !this.matches(resolved, flag.name)) continue;
        features.push(this.features.form(flag, project, resolved.environment));
      }
    }
    const segments = [...this.segments()].sort((a, b) => a.id - b.id).map((s) => ({ id: s.id, name: s.name, constraints: s.constraints }));
    const body = `{"events":[{"type":"hydration","eventId":${revision},"features":[${features.join(',')}],"segments":${JSON.stringify(segments)}}]}`;
    const answer: DeltaAnswer = { kind: 'hydration', revision, body };
    if (!cached && this.hydrations.size >= MAX_CACHED) this.hydrations.delete(this.hydrations.keys().next().value!);
    this.hydrations.set(key, answer);
    return answer;
  }
}
