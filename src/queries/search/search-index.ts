/**
 * What a flag search keeps per project, per state version: its flags (lower-cased for the free text), their
 * names and descriptions joined in one string, the sort orders asked for, and which flags are parents.
 * Built on the first search after a change, from the previous index where it holds (`search-index-build.ts`);
 * a project's first index can be built ahead, in slices between other work ({@link SearchIndexes.warm}).
 */
import type { ProjectState } from '../../domain/project-state.js';
import type { Flag } from '../../domain/types.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { buildIndex, freshIndex } from './search-index-build.js';
import type { Entry, ProjectIndex } from './search-index-types.js';
import type { Hit } from './search-order.js';

/** A flag's entry; flags are replaced, never changed, so an unchanged flag keeps its entry across versions (`buildIndex`). */
const entryOf = (flag: Flag): Entry =>
  ({ flag, name: flag.name.toLowerCase(), description: flag.description.toLowerCase(), archived: flag.archived, type: flag.type });

/** A first index being built in slices: the state it is for, at which version, and the entries made so far. */
interface PendingIndex {
  state: ProjectState;
  version: number;
  flags: Iterator<Flag>;
  base: Entry[];
}

/** Milliseconds of one slice of a warm build, between which requests are answered. */
const SLICE_MS = 4;
/** How often a warm build starts over after a write changed the state under it, before leaving it to the first read. */
const WARM_RESTARTS = 3;

/** Most sort orders kept per project (one per field and direction; `environment:<name>` adds two per environment). */
const ORDERS_PER_PROJECT = 32;

/**
 * The indexes of every project searched; those of deleted projects are dropped as new ones are built.
 *
 * @example const { base } = indexes.index('default', state);
 */
export class SearchIndexes {
  private readonly indexes = new Map<string, ProjectIndex>();
  private readonly pending = new Map<string, PendingIndex>();

  /** `projectIds`: the projects that exist now; `sliceMs`: how long one slice of a warm build runs. */
  constructor(private readonly projectIds: () => string[], private readonly sliceMs = SLICE_MS) {}

  /**
   * Builds project `id`'s first index for `state` in slices of a few milliseconds, yielding to other work in
   * between; resolves when it is kept (or left to the first read: a project already indexed, or written to
   * on every attempt). A read that needs the index meanwhile finishes the build itself ({@link index}).
   *
   * @example await indexes.warm('default', registry.project('default')!.state)
   */
  async warm(id: string, state: ProjectState): Promise<void> {
    for (let attempt = 0; attempt <= WARM_RESTARTS; attempt += 1) {
      if (this.indexes.has(id) || this.pending.has(id)) return;
      const pending: PendingIndex = { state, version: state.version, flags: state.flags.values(), base: [] };
      this.pending.set(id, pending);
      while (!this.step(pending, this.sliceMs)) {
        await nextTurn();
        // A read finished it (or dropped it, the state having moved on).
        if (this.pending.get(id) !== pending) return;
        if (state.version !== pending.version) break;
      }
      this.pending.delete(id);
      if (state.version === pending.version) {
        this.keep(id, freshIndex(pending.version, pending.base));
        return;
      }
    }
  }

  /** Makes entries of `pending` for up to `ms` milliseconds; true when every flag has one. */
  private step(pending: PendingIndex, ms: number): boolean {
    const until = performance.now() + ms;
    for (let n = 1; ; n += 1) {
      const next = pending.flags.next();
      if (next.done) return true;
      pending.base.push(entryOf(next.value));
      if ((n & 255) === 0 && performance.now() > until) return false;
    }
  }

  /** Project `id`'s index for `state`, built when its state version changed. */
  index(id: string, state: ProjectState): ProjectIndex {
    let index = this.indexes.get(id);
    if (!index || index.version !== state.version) {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      // A warm build of this very state version: finish it rather than start over.
      if (pending && pending.state === state && pending.version === state.version && this.step(pending, Infinity)) index = freshIndex(state.version, pending.base);
      else index = buildIndex(state, index, entryOf);
      this.keep(id, index);
    }
    return index;
  }

  /** Keeps `index` as project `id`'s; drops the indexes of projects deleted since. */
  private keep(id: string, index: ProjectIndex): void {
    this.indexes.set(id, index);
    if (this.indexes.size > this.projectIds().length) {
      const live = new Set(this.projectIds());
      for (const key of this.indexes.keys()) if (!live.has(key)) this.indexes.delete(key);
    }
  }

  /** The project's flags (archived ones too) as positions in `base`, sorted by `compare`; kept under `key`. */
  order(id: string, state: ProjectState, key: string, compare: (a: Hit, b: Hit) => number): Uint32Array {
    const index = this.index(id, state);
    let order = index.orders.get(key);
    if (order) order.askedAt = index.builds;
    else {
      const hits = index.base.map((entry, at) => ({ flag: entry.flag, project: id, at }));
      order = { positions: Uint32Array.from(hits.sort(compare), (h) => h.at), compare, askedAt: index.builds };
      if (index.orders.size >= ORDERS_PER_PROJECT) index.orders.clear();
      index.orders.set(key, order);
    }
    return order.positions;
  }

  /** Names of the flags of the project another active flag depends on. */
  parents(id: string, state: ProjectState): Set<string> {
    const index = this.index(id, state);
    if (!index.parents) {
      index.parents = new Set();
      for (const flag of state.flags.values()) {
        if (!flag.archived) for (const d of flag.dependencies ?? []) index.parents.add(d.feature);
      }
    }
    return index.parents;
  }

}

/**
 * Which flags (by position in `base`) hold one of `terms` in their name or description.
 *
 * @example textMatches(indexes.index('default', state), ['checkout'])[0] // 1 when the first flag matches
 */
export function textMatches(index: ProjectIndex, terms: readonly string[]): Uint8Array {
  const { base, text, starts } = index;
  const hits = new Uint8Array(base.length);
  for (const term of terms) {
    if (text === undefined || term.includes('\u0000') || term.includes('\u0001')) {
      base.forEach((e, at) => { if (e.name.includes(term) || e.description.includes(term)) hits[at] = 1; });
      continue;
    }
    // Positions found only grow, so the flag holding each is found by walking `starts` forward once.
    let at = 0;
    let from = text.indexOf(term);
    while (from >= 0) {
      while (starts[at + 1]! <= from) at += 1;
      hits[at] = 1;
      from = text.indexOf(term, starts[at + 1]!);
    }
  }
  return hits;
}
