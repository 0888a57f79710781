import type { Scope } from '../../snapshots/keys.js';
import type { CommittedRecord } from './actor-model.js';
import { LatestTouches, type FlagTouch } from './latest-touches.js';

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
 * What an entry is counted as against the byte bound. An entry is three slots of three arrays (its revision,
 * its touches, this count), with the slack of arrays that grow by doubling and are compacted when half is
 * dropped: 48 bytes. Several touches add their array; a touch is one object per (project, flag, environment),
 * shared by every entry that names it, so only the entry that first names it counts it, with its names.
 * The figures are set at or above the heap the history takes after a full collection, from 200 to 50,000 flags.
 */
const ENTRY_BYTES = 48;
const TOUCHES_BYTES = 32;
const TOUCH_BYTES = 120;
const SEGMENT_BYTES = 8;
const RARE_BYTES = 96;

/**
 * Dropped revisions between two passes that forget the latest touches at or below the floor. A pass walks
 * the map from its oldest end, over the holes earlier deletions left there, so it runs once per many drops.
 */
const FORGET_EVERY = 1024;

/** What few entries carry beside flag touches: segments, a reset. */
interface Rare {
  readonly segments: readonly number[];
  readonly reset: boolean;
}

const NO_SEGMENTS: readonly number[] = Object.freeze([]);

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
 * Beside the entries it keeps the latest revision of each (flag, environment) and each segment they touch
 * (`LatestTouches`): a client many changes behind is answered from those (one per flag touched) instead of
 * from every entry since (`changesSince`).
 *
 * The entries are kept as columns (revisions, touches, counted bytes) and the touches are shared: a write
 * that touches a flag already named leaves no object behind. Every entry lives for tens of thousands of
 * writes, long enough to be promoted: what it leaves is marked again by every old-generation collection.
 *
 * @example history.record({ project: 'default' }, records, 41); history.since(38) // entries 39..41
 */
export class FeedHistory {
  /** Entry i (from `head` on): the revision it brought the service to. */
  private revisions: number[] = [];
  /** Entry i's flag touches: one, several, or none. */
  private touches: (FlagTouch | readonly FlagTouch[] | null)[] = [];
  /** Entry i's bytes as counted against the bound. */
  private sizes: number[] = [];
  /** The segments and resets of the entries that have any, by revision. */
  private readonly rare = new Map<number, Rare>();
  /** Index of the oldest kept entry in the columns (dropped ones are compacted away now and then). */
  private head = 0;
  private bytes = 0;
  private start: number | null = null;
  /** The latest touch of each (project, flag, environment) and segment within the history. */
  private readonly latest = new LatestTouches();
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
    return { events: this.revisions.length - this.head, bytes: this.bytes, latest: this.latest.count };
  }

  /** Notes a committed batch of `scope` whose last record brought the service to `revision`. */
  record(scope: Scope, records: readonly CommittedRecord[], revision: number): void {
    const first = revision - records.length;
    this.start ??= first;
    for (let i = 0; i < records.length; i += 1) this.add(scope, records[i]!, first + i + 1);
  }

  /** The entries after `revision`, oldest first; undefined when the history no longer reaches back to it. */
  since(revision: number, current: number): readonly HistoryEntry[] | undefined {
    if (revision < this.floor(current)) return undefined;
    const entries: HistoryEntry[] = [];
    for (let i = this.firstAfter(revision); i < this.revisions.length; i += 1) {
      const at = this.revisions[i]!;
      const rare = this.rare.get(at);
      entries.push({ revision: at, flags: touchList(this.touches[i]!), segments: rare?.segments ?? [], reset: rare?.reset ?? false, bytes: this.sizes[i]! });
    }
    return entries;
  }

  /** The index in the columns of the first entry after `revision`. */
  private firstAfter(revision: number): number {
    let low = this.head;
    let high = this.revisions.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.revisions[mid]! <= revision) low = mid + 1;
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
   * touches (a client behind a flood of changes to the same flags, where the entries since are tens of
   * thousands for a few hundred flags).
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
    if (this.revisions.length - first <= this.latest.count) {
      for (let i = first; i < this.revisions.length; i += 1) {
        const at = this.revisions[i]!;
        const touched = this.touches[i]!;
        if (isTouchList(touched)) for (const touch of touched) onFlag(touch, at);
        else if (touched !== null) onFlag(touched, at);
        if (this.rare.size > 0) for (const id of this.rare.get(at)?.segments ?? NO_SEGMENTS) onSegment(id, at);
      }
      return 'changes';
    }
    this.latest.since(revision, onFlag, onSegment);
    return 'changes';
  }

  /** Keeps what one record changed that SDKs see, if anything (users, tokens, environments, project metadata: nothing). */
  private add(scope: Scope, record: CommittedRecord, revision: number): void {
    let touched: FlagTouch | FlagTouch[] | null = null;
    let segments: number[] | null = null;
    let reset = false;
    let bytes = ENTRY_BYTES;
    for (const event of record.events as readonly AnyEvent[]) {
      if (scope === 'service') {
        if (event.type === 'segment.created' || event.type === 'segment.updated' || event.type === 'segment.deleted') (segments ??= []).push(event.segment!.id);
        else if (event.type === 'service.initialized') reset = true;
        continue;
      }
      // Change requests are the project's paperwork: an applied one records its flag events beside its own.
      if (event.type === 'project.created' || event.type === 'project.updated' || SDK_UNSEEN_FLAG_EVENTS.has(event.type) || event.type.startsWith('change-request.')) continue;
      const name = event.type === 'flag.created' ? event.flag?.name : event.name;
      // An event of a kind this does not know: a hydration is always right.
      if (typeof name !== 'string') {
        reset = true;
        continue;
      }
      const environment = typeof event.environment === 'string' ? event.environment : null;
      const named = this.latest.flagCount;
      const touch = this.latest.flag(scope.project, name, environment, revision);
      // Only the entry that first names a touch counts it, with its names.
      if (this.latest.flagCount > named) bytes += TOUCH_BYTES + 2 * (scope.project.length + name.length + (environment?.length ?? 0));
      if (touched === null) touched = touch;
      else if (isTouchList(touched)) touched.push(touch);
      else {
        touched = [touched, touch];
        bytes += TOUCHES_BYTES;
      }
    }
    if (touched === null && segments === null && !reset) return;
    if (isTouchList(touched)) bytes += 8 * touched.length;
    if (segments !== null || reset) {
      this.rare.set(revision, { segments: segments ?? NO_SEGMENTS, reset });
      bytes += RARE_BYTES + SEGMENT_BYTES * (segments?.length ?? 0);
      for (const id of segments ?? NO_SEGMENTS) this.latest.segment(id, revision);
      if (reset) this.latestReset = revision;
    }
    this.push(revision, touched, bytes);
  }

  private push(revision: number, touched: FlagTouch | readonly FlagTouch[] | null, bytes: number): void {
    this.revisions.push(revision);
    this.touches.push(touched);
    this.sizes.push(bytes);
    this.bytes += bytes;
    let dropped = false;
    while (this.revisions.length - this.head > this.bounds.events || (this.bytes > this.bounds.bytes && this.revisions.length - this.head > 1)) {
      const oldest = this.revisions[this.head]!;
      this.bytes -= this.sizes[this.head]!;
      if (this.rare.size > 0) this.rare.delete(oldest);
      this.head += 1;
      this.start = oldest;
      dropped = true;
    }
    // Touches at or below the floor are never answered (a client there or later wants what came after), so
    // forgetting them in passes only keeps at most FORGET_EVERY more of them around.
    if (dropped && this.start! - this.forgotUpTo >= FORGET_EVERY) {
      this.latest.forgetUpTo(this.start!);
      this.forgotUpTo = this.start!;
    }
    // Compact once the dropped prefix is as long as what is kept, so a drop costs O(1) on average.
    if (this.head > 1024 && this.head * 2 > this.revisions.length) {
      this.revisions = this.revisions.slice(this.head);
      this.touches = this.touches.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}

const isTouchList = (touched: FlagTouch | readonly FlagTouch[] | null): touched is readonly FlagTouch[] => Array.isArray(touched);

/** An entry's touches as a list. */
const touchList = (touched: FlagTouch | readonly FlagTouch[] | null): readonly FlagTouch[] =>
  touched === null ? [] : isTouchList(touched) ? touched : [touched];

/** Flag events that change nothing an SDK is served: a flag's lifecycle stages. */
const SDK_UNSEEN_FLAG_EVENTS: ReadonlySet<string> = new Set(['flag.stages-entered', 'flag.completed', 'flag.uncompleted']);

type AnyEvent = { type: string; name?: unknown; environment?: unknown; flag?: { name: string }; segment?: { id: number } };
