/**
 * Building a project's search index for a new state version: from the project's previous index where it still
 * holds, since between two versions a project's flags are replaced in place, removed, or added at the end
 * (its map keeps creation order). Unchanged entries are kept; the joined text is kept or extended when no
 * name or description changed; each sort order is kept when every replaced flag ranks as before, minus the
 * removed flags, with the added ones put in place by binary search (an order not asked for in the last
 * builds is dropped). So a switch or a new flag in a 100k-flag project does not join and sort 100k flags again.
 */
import type { ProjectState } from '../../domain/project-state.js';
import type { Flag } from '../../domain/types.js';
import type { Entry, KeptOrder, ProjectIndex } from './search-index-types.js';
import type { Hit } from './search-order.js';

/** Largest joined text kept per project (characters); past it, terms are matched flag by flag. */
const TEXT_MAX = 2 ** 25;
/** Builds an order is carried through without being asked for (a `lastSeenAt` order of a past usage version never is again). */
const ORDER_IDLE_BUILDS = 16;

/** How the flags moved from the previous index to this one. */
interface Moves {
  /** New position of each previous one; -1 when removed. */
  moved: Int32Array;
  /** Previous positions whose flag was replaced by another image of the same name. */
  replaced: number[];
  /** New positions of flags the previous index did not have, ascending. */
  added: number[];
  removed: number;
}

/**
 * The index of `state`, carried from `before` (the project's last index, if any) where it holds.
 *
 * @example buildIndex(state, indexes.get(id), (flag) => entryOf(flag))
 */
export function buildIndex(state: ProjectState, before: ProjectIndex | undefined, entryOf: (flag: Flag) => Entry): ProjectIndex {
  const old = before?.base ?? [];
  const base = new Array<Entry>(state.flags.size);
  const moves: Moves = { moved: new Int32Array(old.length).fill(-1), replaced: [], added: [], removed: 0 };
  let i = 0;
  let j = 0;
  for (const flag of state.flags.values()) {
    // Flags keep their relative order: a previous flag not met before this one's name was removed.
    while (i < old.length && old[i]!.flag.name !== flag.name) i += 1;
    if (i < old.length) {
      moves.moved[i] = j;
      if (old[i]!.flag === flag) base[j] = old[i]!;
      else {
        base[j] = entryOf(flag);
        moves.replaced.push(i);
      }
      i += 1;
    } else {
      base[j] = entryOf(flag);
      moves.added.push(j);
    }
    j += 1;
  }
  moves.removed = old.length - (base.length - moves.added.length);
  // Mostly new flags (or none before): sorting afresh is as cheap as carrying.
  if (!before || moves.added.length > base.length / 2) return freshIndex(state.version, base);
  const orders = new Map<string, KeptOrder>();
  const project = state.meta.id;
  for (const [key, order] of before.orders) {
    if (before.builds - order.askedAt >= ORDER_IDLE_BUILDS) continue;
    const carried = carriedOrder(order, moves, old, base, project);
    if (carried) orders.set(key, carried);
  }
  const { text, starts } = carriedText(before, moves, base);
  return { version: state.version, base, text, starts, orders, builds: before.builds + 1 };
}

/**
 * The first index of a project at state `version`, over its entries `base` (in the map's order): no order kept yet.
 *
 * @example freshIndex(state.version, Array.from(state.flags.values(), entryOf))
 */
export function freshIndex(version: number, base: Entry[]): ProjectIndex {
  const { text, starts } = joinedText(base);
  return { version, base, text, starts, orders: new Map(), builds: 0 };
}

/** `base` with its joined text and where each flag's part starts (see `ProjectIndex.text`). */
function joinedText(base: Entry[]): Pick<ProjectIndex, 'text' | 'starts'> {
  const starts = new Uint32Array(base.length + 1);
  let length = 0;
  base.forEach((e, at) => {
    starts[at] = length;
    length += e.name.length + e.description.length + 2;
  });
  starts[base.length] = length;
  const text = length <= TEXT_MAX ? base.map((e) => `${e.name}\u0001${e.description}\u0000`).join('') : undefined;
  return { text, starts };
}

/** The previous text, extended by the added flags' parts, when only flags at the end were added and no text changed. */
function carriedText(before: ProjectIndex, { moved, replaced, added, removed }: Moves, base: Entry[]): Pick<ProjectIndex, 'text' | 'starts'> {
  const kept = before.base.length;
  const sameText = replaced.every((p) => before.base[p]!.name === base[moved[p]!]!.name && before.base[p]!.description === base[moved[p]!]!.description);
  if (!sameText || removed > 0 || before.text === undefined) return joinedText(base);
  if (added.length === 0) return { text: before.text, starts: before.starts };
  const starts = new Uint32Array(base.length + 1);
  starts.set(before.starts.subarray(0, kept));
  let length = before.starts[kept]!;
  for (let at = kept; at < base.length; at += 1) {
    starts[at] = length;
    length += base[at]!.name.length + base[at]!.description.length + 2;
  }
  starts[base.length] = length;
  if (length > TEXT_MAX) return joinedText(base);
  return { text: before.text + base.slice(kept).map((e) => `${e.name}\u0001${e.description}\u0000`).join(''), starts };
}

/**
 * `order` over the new positions; undefined when a replaced flag ranks differently (its sort key changed).
 * Names are unique in a project and every order ends on the name, so `compare` is 0 only for the same rank.
 */
function carriedOrder(order: KeptOrder, { moved, replaced, added, removed }: Moves, old: Entry[], base: Entry[], project: string): KeptOrder | undefined {
  const { compare } = order;
  if (!replaced.every((p) => compare({ flag: old[p]!.flag, project }, { flag: base[moved[p]!]!.flag, project }) === 0)) return undefined;
  if (removed === 0 && added.length === 0) return order;
  const survivors = new Uint32Array(order.positions.length - removed);
  let s = 0;
  for (const p of order.positions) if (moved[p]! >= 0) survivors[s++] = moved[p]!;
  const hit = (at: number): Hit => ({ flag: base[at]!.flag, project });
  const fresh = added.map((at) => ({ ...hit(at), at })).sort(compare);
  const positions = new Uint32Array(base.length);
  let from = 0;
  let out = 0;
  for (const a of fresh) {
    let low = from;
    let high = survivors.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(hit(survivors[mid]!), a) < 0) low = mid + 1;
      else high = mid;
    }
    positions.set(survivors.subarray(from, low), out);
    out += low - from;
    from = low;
    positions[out++] = a.at;
  }
  positions.set(survivors.subarray(from), out);
  return { positions, compare, askedAt: order.askedAt };
}
