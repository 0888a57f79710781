import type { Scope } from '../../snapshots/keys.js';
import type { CommittedRecord } from './command-actor.js';

/** A flag a committed record changed: in one environment, or in all of them (`environment: null`). */
export interface FlagTouch {
  project: string;
  name: string;
  environment: string | null;
}

/** What one committed record changed that an SDK can see, at the revision it brought the service to. */
export interface HistoryEntry {
  revision: number;
  flags: readonly FlagTouch[];
  segments: readonly number[];
  /** A change no delta can express (a whole state initialized): whoever is before it needs a hydration. */
  reset: boolean;
  /** What the entry is counted as against the byte bound (an estimate of its size in memory). */
  bytes: number;
}

/** How much history is kept: the first bound reached drops the oldest entries. */
export interface HistoryBounds {
  /** Entries (committed records an SDK can see) kept, `CLIENT_DELTA_HISTORY_EVENTS`. */
  events: number;
  /** Their estimated bytes, `CLIENT_DELTA_HISTORY_BYTES`. */
  bytes: number;
}

export const DEFAULT_HISTORY_BOUNDS: HistoryBounds = { events: 50_000, bytes: 16 * 1024 * 1024 };

/**
 * Fixed cost of an entry and of each flag it names, in the byte estimate (object headers, arrays, the names
 * kept alive): a toggle counts ~280 bytes; measured, the heap grew ~430 bytes per toggle, history and all.
 */
const ENTRY_BYTES = 160;
const TOUCH_BYTES = 64;

/**
 * Dropped revisions between two passes that forget the latest touches at or below the floor. A pass walks
 * the map from its oldest end, over the holes its deletions left there: one per dropped entry cost ~3 µs of
 * every write once the history was full; one per 1,024 costs that once.
 */
const FORGET_EVERY = 1024;

/**
 * The recent committed changes SDKs can see, newest last, bounded in entries and bytes: what the delta API
 * and the streams answer from, so a client a few changes behind gets those changes, not the whole state.
 * Entries hold names, not flags: the answer reads the flags' committed state when it is built.
 *
 * A client that has seen revision `r` can be served from here when `r >= floor`: every visible change after
 * `floor` is held. The floor starts at the revision of the first batch after recovery (the history is not
 * rebuilt from the logs: after a restart, an older revision gets a hydration, which misses nothing) and
 * moves up as old entries are dropped.
 *
 * Beside the entries it keeps the latest revision of each (flag, environment) and each segment they touch, in
 * the order of those revisions: a client many changes behind is answered from those (one per flag touched)
 * instead of from every entry since (`changesSince`).
 *
 * @example history.record({ project: 'default' }, records, 41); history.since(38) // entries 39..41
 */
export class FeedHistory {
  private entries: HistoryEntry[] = [];
  /** Index of the oldest kept entry in `entries` (dropped ones are compacted away now and then). */
  private head = 0;
  private bytes = 0;
  private start: number | null = null;
  /** The latest touch of each (project, flag, environment) within the history, in the order of their revisions. */
  private readonly latestFlags = new Map<string, { touch: FlagTouch; revision: number }>();
  /** The latest revision of each segment within the history, in that order. */
  private readonly latestSegments = new Map<number, number>();
  /** The revision of the latest reset (0: none). */
  private latestReset = 0;
  /** The floor of the last pass that forgot latest touches. */
  private forgotUpTo = 0;

  constructor(private readonly bounds: HistoryBounds = DEFAULT_HISTORY_BOUNDS) {}

  /** The oldest revision served as a delta; `current` when nothing was committed since the start. */
  floor(current: number): number {
    return this.start ?? current;
  }

  /** Entries kept, their estimated bytes, and the latest touches kept (flags per environment, segments). */
  size(): { events: number; bytes: number; latest: number } {
    return { events: this.entries.length - this.head, bytes: this.bytes, latest: this.latestFlags.size + this.latestSegments.size };
  }

  /** Notes a committed batch of `scope` whose last record brought the service to `revision`. */
  record(scope: Scope, records: readonly CommittedRecord[], revision: number): void {
    const first = revision - records.length;
    this.start ??= first;
    records.forEach((record, i) => {
      const entry = entryOf(scope, record, first + i + 1);
      if (entry) this.push(entry);
    });
  }

  /** The entries after `revision`, oldest first; undefined when the history no longer reaches back to it. */
  since(revision: number, current: number): readonly HistoryEntry[] | undefined {
    if (revision < this.floor(current)) return undefined;
    return this.entries.slice(this.firstAfter(revision));
  }

  /** The index in `entries` of the first entry after `revision`. */
  private firstAfter(revision: number): number {
    let low = this.head;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.entries[mid]!.revision <= revision) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * What changed after `revision`, oldest first, each flag touch (per environment) and segment once, at its
   * latest revision: `onFlag` and `onSegment` are called in the order of those revisions. `'reset'` when a
   * change after it no delta expresses, `'gone'` when the history no longer reaches back to it (both: answer a
   * hydration), else `'changes'`.
   *
   * It reads whichever is shorter: the entries after `revision` (a client a few changes behind), or the latest
   * touches (a client behind a flood of changes to the same flags: a stream between two fan-outs under a
   * write load read ~25,000 entries, 5 to 30 ms of the event loop at once, to find 200 flags).
   */
  changesSince(
    revision: number,
    current: number,
    onFlag: (touch: FlagTouch, revision: number) => void,
    onSegment: (id: number, revision: number) => void,
  ): 'changes' | 'reset' | 'gone' {
    if (revision < this.floor(current)) return 'gone';
    if (this.latestReset > revision) return 'reset';
    const first = this.firstAfter(revision);
    if (this.entries.length - first <= this.latestFlags.size + this.latestSegments.size) {
      for (let i = first; i < this.entries.length; i += 1) {
        const entry = this.entries[i]!;
        for (const touch of entry.flags) onFlag(touch, entry.revision);
        for (const id of entry.segments) onSegment(id, entry.revision);
      }
      return 'changes';
    }
    for (const latest of this.latestFlags.values()) if (latest.revision > revision) onFlag(latest.touch, latest.revision);
    for (const [id, at] of this.latestSegments) if (at > revision) onSegment(id, at);
    return 'changes';
  }

  private push(entry: HistoryEntry): void {
    this.entries.push(entry);
    this.bytes += entry.bytes;
    this.noteLatest(entry);
    let dropped = false;
    while (this.entries.length - this.head > this.bounds.events || (this.bytes > this.bounds.bytes && this.entries.length - this.head > 1)) {
      const oldest = this.entries[this.head]!;
      this.head += 1;
      this.bytes -= oldest.bytes;
      this.start = oldest.revision;
      dropped = true;
    }
    // Touches at or below the floor are never answered (a client there or later wants what came after), so
    // forgetting them in passes only keeps at most FORGET_EVERY more of them around.
    if (dropped && this.start! - this.forgotUpTo >= FORGET_EVERY) {
      this.forgetLatestUpTo(this.start!);
      this.forgotUpTo = this.start!;
    }
    // Compact once the dropped prefix is as long as what is kept, so a drop costs O(1) on average.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** The latest touches, moved to the end (their revision only grows). */
  private noteLatest(entry: HistoryEntry): void {
    for (const touch of entry.flags) {
      const key = `${touch.project}\u0000${touch.name}\u0000${touch.environment ?? '\u0001'}`;
      this.latestFlags.delete(key);
      this.latestFlags.set(key, { touch, revision: entry.revision });
    }
    for (const id of entry.segments) {
      this.latestSegments.delete(id);
      this.latestSegments.set(id, entry.revision);
    }
    if (entry.reset) this.latestReset = entry.revision;
  }

  /** Drops the latest touches at or below the floor (no client the history serves is before them). */
  private forgetLatestUpTo(floor: number): void {
    for (const [key, latest] of this.latestFlags) {
      if (latest.revision > floor) break;
      this.latestFlags.delete(key);
    }
    for (const [id, at] of this.latestSegments) {
      if (at > floor) break;
      this.latestSegments.delete(id);
    }
  }
}

type AnyEvent = { type: string; name?: unknown; environment?: unknown; flag?: { name: string }; segment?: { id: number } };

/** What a record changed that SDKs see; null when nothing (users, tokens, environments, project metadata). */
function entryOf(scope: Scope, record: CommittedRecord, revision: number): HistoryEntry | null {
  const flags: FlagTouch[] = [];
  const segments: number[] = [];
  let reset = false;
  for (const event of record.events as readonly AnyEvent[]) {
    if (scope === 'service') {
      if (event.type === 'segment.created' || event.type === 'segment.updated' || event.type === 'segment.deleted') segments.push(event.segment!.id);
      else if (event.type === 'service.initialized') reset = true;
      continue;
    }
    if (event.type === 'project.created' || event.type === 'project.updated') continue;
    const name = event.type === 'flag.created' ? event.flag?.name : event.name;
    // An event of a kind this does not know: a hydration is always right.
    if (typeof name !== 'string') reset = true;
    else flags.push({ project: scope.project, name, environment: typeof event.environment === 'string' ? event.environment : null });
  }
  if (flags.length === 0 && segments.length === 0 && !reset) return null;
  let bytes = ENTRY_BYTES + segments.length * 8;
  for (const t of flags) bytes += TOUCH_BYTES + 2 * (t.project.length + t.name.length + (t.environment?.length ?? 0));
  return { revision, flags, segments, reset, bytes };
}
