/** The shapes of a project's search index, shared by the index and its builder. */
import type { Flag } from '../../domain/types.js';
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

/** One kept sort order of a project. */
export interface KeptOrder {
  positions: Uint32Array;
  compare: (a: Hit, b: Hit) => number;
  /** `builds` of the last index it was asked for on: an order left unasked is not carried for ever. */
  askedAt: number;
}
