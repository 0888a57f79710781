/**
 * The records of SDK usage (docs/storage.md "Usage metrics"): hourly count buckets and sightings as reported,
 * stored and read, the changes a flush writes, and the arithmetic on them (capped sums, recent-first maps).
 */
import { USAGE_BOUNDS } from '../limits.js';

const safeAdd = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);

/** One hour, ms: the width of a usage bucket. */
export const HOUR_MS = 3_600_000;

/** The start of the hour `ms` falls in. */
export const hourStart = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** The start of the oldest hourly bucket kept at `now`: a bucket that ended more than 48 h ago is dropped. */
export const oldestKeptHour = (now: number): number => hourStart(now - USAGE_BOUNDS.retentionHours * HOUR_MS);

/** Counts of one flag in one environment over one hour. */
export interface Counts {
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/** An hourly bucket: its start (ms), its environment and its counts. */
export interface CountCell extends Counts {
  hour: number;
  environment: string;
}

/** When a flag was last seen, per environment and per application (ISO dates): its stored form. */
export interface SeenRecord {
  environments: Record<string, string>;
  apps: Record<string, string>;
}

/** A flag's `lastSeenAt` (the latest over its environments) and each environment's own. */
export interface FlagSeen {
  lastSeenAt: string | null;
  environments: ReadonlyMap<string, string>;
}

/** What a flag never reported shows. */
export const NOT_SEEN: FlagSeen = Object.freeze({ lastSeenAt: null, environments: new Map<string, string>() });

/** One flag of a metrics post, resolved to the project that holds it. */
export interface CountReport {
  project: string;
  flag: string;
  yes: number;
  no: number;
  variants: Record<string, number>;
}

/** A change of published records, for the actor to write. */
export type CountChange =
  | { kind: 'cell'; project: string; flag: string; cell: CountCell }
  | { kind: 'cell-removed'; project: string; flag: string; hour: number; environment: string }
  | { kind: 'seen'; project: string; flag: string; seen: SeenRecord }
  | { kind: 'seen-removed'; project: string; flag: string };

/**
 * What a flush writes, and the step that publishes it once written. `changes` may be computed as it is
 * iterated (so a large flush can yield to the event loop between changes); iterate it fully before `apply`.
 */
export interface Plan<C> {
  changes: Iterable<C>;
  apply(): void;
}

/** Adds `from`'s counts into `into` (mutated), keeping at most `variantsPerBucket` variant names. */
export function addCounts(into: Counts, from: Counts): void {
  into.yes = safeAdd(into.yes, from.yes);
  into.no = safeAdd(into.no, from.no);
  for (const [name, count] of Object.entries(from.variants)) {
    if (Object.hasOwn(into.variants, name)) into.variants[name] = safeAdd(into.variants[name]!, count);
    else if (Object.keys(into.variants).length < USAGE_BOUNDS.variantsPerBucket) into.variants[name] = count;
  }
}

/** `map` with `key` moved to the end (most recent), at most `max` entries (least recent dropped). */
export function touchRecent(map: Map<string, string>, key: string, value: string, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}
