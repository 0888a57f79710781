import { measureJson } from '../schemas/json-size.js';
import { own } from './dict.js';
import type { Flag, Strategy, Variant } from './types.js';

/*
 * A flag's stored size, for the `flagBytes` limit: the length of its JSON text, counted without building that
 * text. Its own fields and parameters are counted in characters (escapes left out: a close bound of bytes for
 * the ASCII these are made of); nested parts in bytes by `measureJson`, the measure JSON Patch limits use.
 *
 * Counting is cheaper than remembering: `JSON.stringify` of one strategy cost ~1 µs, a count of it 0.2 to
 * 0.4 µs, and remembering every record's size by identity in a WeakMap cost more than counting them (its
 * lookups, its sets and the collector's work on it: ~2.7 µs of each strategy added to flags holding a few).
 * So only what is large is remembered ({@link REMEMBER_FROM}): a flag near the limit is not walked again
 * whole by every change.
 */

/**
 * The size from which a strategy list, a strategy or a variant list is remembered by identity (records are
 * immutable): counting costs 1 to 2 ns a character, remembering 0.1 to 0.7 µs.
 */
const REMEMBER_FROM = 512;
const remembered = new WeakMap<object, number>();

/** The JSON bytes of a record's nested part (constraints, variants, segments, tags...); an empty list at once. */
const nestedSize = (value: unknown): number =>
  (Array.isArray(value) && value.length === 0 ? 2 : measureJson(value, Infinity)!.bytes);

/** The text of a strategy record around its values: its braces, its keys, their quotes, colons and commas. */
const STRATEGY_FRAME = '{"id":,"name":,"title":,"disabled":,"sortOrder":,"constraints":,"parameters":,"variants":,"segments":}'.length;

/** The JSON length of a strategy's parameters: a map of strings (`nestedSize` for anything else). */
function parametersSize(parameters: Readonly<Record<string, unknown>>): number {
  let size = 1;
  let keys = 0;
  for (const key in parameters) {
    const value = parameters[key];
    size += key.length + 3 + (typeof value === 'string' ? value.length + 2 : nestedSize(value));
    keys += 1;
  }
  return size + (keys > 0 ? keys : 1);
}

/** A strategy record's JSON length, its fields counted one by one (their shape is `StrategyRecord`'s). */
function strategySize(strategy: Strategy): number {
  const known = remembered.get(strategy);
  if (known !== undefined) return known;
  const size = STRATEGY_FRAME + strategy.id.length + 2 + strategy.name.length + 2
    + (typeof strategy.title === 'string' ? strategy.title.length + 2 : 4) + (strategy.disabled ? 4 : 5)
    + String(strategy.sortOrder).length + nestedSize(strategy.constraints) + parametersSize(strategy.parameters)
    + nestedSize(strategy.variants) + nestedSize(strategy.segments);
  if (size >= REMEMBER_FROM) remembered.set(strategy, size);
  return size;
}

/**
 * The JSON length of one environment's strategy list; `before`, the list it replaced, when known. A list that
 * is `before` with one strategy added (the others in their order: the sort is stable) is `before`'s remembered
 * size, that strategy and a comma: adding to a flag that holds many does not count them all again.
 */
function strategiesSize(strategies: readonly Strategy[], before?: readonly Strategy[]): number {
  // A list that grew is new: it is not remembered yet, so it is not looked up first.
  let size = before && before !== strategies ? grownSize(before, strategies) : undefined;
  if (size === undefined) {
    const known = remembered.get(strategies);
    if (known !== undefined) return known;
    size = strategies.length > 0 ? strategies.length + 1 : 2;
    for (const strategy of strategies) size += strategySize(strategy);
  }
  if (size >= REMEMBER_FROM) remembered.set(strategies, size);
  return size;
}

/** The size of `after` from `before`'s remembered one when `after` is `before` and one strategy more; else undefined. */
function grownSize(before: readonly Strategy[], after: readonly Strategy[]): number | undefined {
  if (after.length !== before.length + 1) return undefined;
  const prior = remembered.get(before);
  if (prior === undefined) return undefined;
  let added: Strategy | undefined;
  let kept = 0;
  for (const strategy of after) {
    if (kept < before.length && strategy === before[kept]) kept += 1;
    else if (added === undefined) added = strategy;
    else return undefined;
  }
  return kept === before.length && added ? prior + strategySize(added) + 1 : undefined;
}

/** Room for a flag's own fields (name, description, type, dates...), measured from the flag as it is. */
const baseSize = (flag: Flag): number => 200 + flag.name.length + flag.description.length
  // Tags and parents are few (LIMIT_TAGS_PER_FLAG, LIMIT_PARENTS_PER_FLAG): counted as they are.
  + (flag.tags && flag.tags.length > 0 ? nestedSize(flag.tags) : 0)
  + (flag.dependencies && flag.dependencies.length > 0 ? nestedSize(flag.dependencies) : 0);

/** Room for an environment entry's own fields (`enabled` and the keys) around its strategies. */
const ENTRY_FRAME = 40;

/** The JSON length of a flag's variants. */
function variantsSize(variants: readonly Variant[]): number {
  if (variants.length === 0) return 2;
  const known = remembered.get(variants);
  if (known !== undefined) return known;
  const size = nestedSize(variants);
  if (size >= REMEMBER_FROM) remembered.set(variants, size);
  return size;
}

/**
 * The size of `flag` as stored, in characters of JSON (within a few per cent: its own fields are estimated).
 * An environment whose strategies a change left alone keeps its list, so a large one is not counted again;
 * with `before`, the flag the change was made to, a large list that grew by one strategy is not either.
 *
 * @example flagSize(after, flag) <= limits.flagBytes
 */
export function flagSize(flag: Flag, before?: Flag): number {
  let size = baseSize(flag) + variantsSize(flag.variants);
  const environments = flag.environments;
  const previous = before?.environments;
  for (const name in environments) {
    if (!Object.hasOwn(environments, name)) continue;
    const prior = previous ? own(previous, name)?.strategies : undefined;
    size += name.length + ENTRY_FRAME + strategiesSize(environments[name]!.strategies, prior);
  }
  return size;
}
