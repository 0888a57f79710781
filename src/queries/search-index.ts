/**
 * What a flag search keeps per project, per state version: its flags (lower-cased for the free text), their
 * names and descriptions joined in one string, the sort orders asked for, and which flags are parents.
 * Built on the first search after a change, from the previous index where it holds (`search-index-build.ts`).
 */
import type { ProjectState } from '../domain/project-state.js';
import type { Flag } from '../domain/types.js';
import { buildIndex } from './search-index-build.js';
import type { Hit } from './search-order.js';

/** A flag with its name and description lower-cased, as the free text compares them. */
export interface Entry {
  flag: Flag;
  name: string;
  description: string;
  /** The flag's, copied so the common filters read one object. */
  archived: boolean;
  type: string;
}

/** One project's index (see the module comment). */
export interface ProjectIndex {
  /** The state version this index was built for (a `lastSeenAt` order also keys on the usage version). */
  version: number;
  /** The project's flags (archived ones too) in creation order; the orders and the text refer to them by position. */
  base: Entry[];
  /**
   * Every flag's lower-cased `name \u0001 description \u0000`, in `base` order, in one string: a term is found by
   * `indexOf` over contiguous memory instead of visiting 100k strings scattered through the heap. Undefined
   * when it would exceed 2^25 characters (`search-index-build.ts`).
   */
  text: string | undefined;
  /** Where each flag's part of `text` starts, and (last) the text's length. */
  starts: Uint32Array;
  /** Positions in `base`, sorted, per order asked for, with the comparison that sorted them. */
  orders: Map<string, KeptOrder>;
  /** How many indexes of the project were built before this one (since the first search). */
  builds: number;
  /** Names of flags another (active) flag of the project depends on. */
  parents?: Set<string>;
}

/** A flag's entry; flags are replaced, never changed, so an unchanged flag keeps its entry across versions (`buildIndex`). */
const entryOf = (flag: Flag): Entry =>
  ({ flag, name: flag.name.toLowerCase(), description: flag.description.toLowerCase(), archived: flag.archived, type: flag.type });

/** One kept sort order of a project. */
export interface KeptOrder {
  positions: Uint32Array;
  compare: (a: Hit, b: Hit) => number;
  /** `builds` of the last index it was asked for on: an order left unasked is not carried for ever. */
  askedAt: number;
}

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
