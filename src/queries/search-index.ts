/**
 * What a flag search keeps per project, per state version: its flags (lower-cased for the free text), their
 * names and descriptions joined in one string, the sort orders asked for, and which flags are parents.
 * Built on the first search after a change, from the previous index where it holds (`search-index-build.ts`).
 */
import type { ProjectState } from '../domain/project-state.js';
import type { Flag } from '../domain/types.js';
import { buildIndex } from './search-index-build.js';
import type { Entry, ProjectIndex } from './search-index-types.js';
import type { Hit } from './search-order.js';

/** A flag's entry; flags are replaced, never changed, so an unchanged flag keeps its entry across versions (`buildIndex`). */
const entryOf = (flag: Flag): Entry =>
  ({ flag, name: flag.name.toLowerCase(), description: flag.description.toLowerCase(), archived: flag.archived, type: flag.type });

/** Most sort orders kept per project (one per field and direction; `environment:<name>` adds two per environment). */
const ORDERS_PER_PROJECT = 32;

/**
 * The indexes of every project searched; those of deleted projects are dropped as new ones are built.
 *
 * @example const { base } = indexes.index('default', state);
 */
export class SearchIndexes {
  private readonly indexes = new Map<string, ProjectIndex>();

  /** `projectIds`: the projects that exist now. */
  constructor(private readonly projectIds: () => string[]) {}

  /** Project `id`'s index for `state`, built when its state version changed. */
  index(id: string, state: ProjectState): ProjectIndex {
    let index = this.indexes.get(id);
    if (!index || index.version !== state.version) {
      index = buildIndex(state, index, entryOf);
      this.indexes.set(id, index);
      // Projects deleted since: drop their orders.
      if (this.indexes.size > this.projectIds().length) {
        const live = new Set(this.projectIds());
        for (const key of this.indexes.keys()) if (!live.has(key)) this.indexes.delete(key);
      }
    }
    return index;
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
