import type { Flag, FlagEnvironment, Strategy, Variant } from './types.js';

/*
 * A flag's stored size, for the `flagBytes` limit, without serializing the whole flag on every write: the
 * records are immutable, so the size of each strategy and of each variant list is measured once (JSON
 * characters, a close bound of bytes for the ASCII these are made of) and remembered by identity.
 */
const measured = new WeakMap<object, number>();

function sizeOf(value: Strategy | Variant[]): number {
  let size = measured.get(value);
  if (size === undefined) {
    size = JSON.stringify(value).length;
    measured.set(value, size);
  }
  return size;
}

/** Room for a flag's own fields (name, description, type, dates...), measured from the flag as it is. */
const baseSize = (flag: Flag): number => 200 + flag.name.length + flag.description.length
  // Tags and parents are few (LIMIT_TAGS_PER_FLAG, LIMIT_PARENTS_PER_FLAG): measured as they are.
  + (flag.tags && flag.tags.length > 0 ? JSON.stringify(flag.tags).length : 0)
  + (flag.dependencies && flag.dependencies.length > 0 ? JSON.stringify(flag.dependencies).length : 0);

/** The size of one environment's strategies, remembered by the entry's identity (an unchanged entry is reused). */
const measuredEntries = new WeakMap<FlagEnvironment, number>();

function entrySize(entry: FlagEnvironment): number {
  let size = measuredEntries.get(entry);
  if (size === undefined) {
    size = 40;
    for (const strategy of entry.strategies) size += sizeOf(strategy) + 1;
    measuredEntries.set(entry, size);
  }
  return size;
}

/**
 * The size of `flag` as stored, in characters of JSON (within a few per cent: separators are estimated).
 * Only what a change built anew is measured: an environment it left alone is the same object as before.
 *
 * @example flagSize(flag) <= limits.flagBytes
 */
export function flagSize(flag: Flag): number {
  let size = baseSize(flag) + sizeOf(flag.variants);
  const environments = flag.environments;
  for (const name in environments) if (Object.hasOwn(environments, name)) size += name.length + entrySize(environments[name]!);
  return size;
}
