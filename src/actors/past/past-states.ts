import { setImmediate as nextTurn } from 'node:timers/promises';
import { keys, seqPart } from '../../../snapshots/keys.js';
import { readLog, snapshotItems } from '../../../snapshots/recovery.js';
import type { Store } from '../../../snapshots/store.js';
import type { ProjectEvent } from '../../domain/events.js';
import type { ProjectState } from '../../domain/project-state.js';
import type { Flag } from '../../domain/types.js';
import type { Checkpoint, PastCheckpoints } from './past-checkpoints.js';
import { emptyProject, stateFromSnapshot, type ProjectModel, type ProjectSnapshotMeta } from '../project-model.js';
import { migratedSnapshot } from '../recovery/recover.js';

/** Where a replay starts: a state and the last record it includes; `kept`, the flag map of the checkpoint it is. */
interface Base {
  seq: number;
  state: ProjectState;
  kept?: ReadonlyMap<string, Flag>;
}

/** A replay to the end of the log running ahead ({@link PastStates.prepare}): where it is, and who waits for it. */
interface Ahead {
  from: number;
  at: number;
  waiters: { seq: number; resolve: () => void }[];
}

/** How often states are kept while replaying, at first, and how many at most (see {@link PastStates}). */
export interface CheckpointBounds {
  interval: number;
  most: number;
}

const DEFAULT_BOUNDS: CheckpointBounds = { interval: 2048, most: 64 };
/** How many checkpoints a replay of `records` log records keeps with the default spacing. */
export const checkpointsFor = (records: number): number => Math.min(DEFAULT_BOUNDS.most, Math.floor(records / DEFAULT_BOUNDS.interval));
/** Records a replay running ahead evolves between two turns of the event loop (a few milliseconds). */
const AHEAD_SLICE = 256;

/**
 * States of one project after past log records, from snapshots plus the log (the dump engine's way).
 * Replaying 100,000 records takes most of a second and the store keeps snapshots some 20,000 records apart, so
 * the states met while replaying are kept as checkpoints every `interval` records, built lazily or ahead
 * ({@link prepare}: at start-up and when a history page opens): a past state then costs one interval of replay
 * at most. Checkpoints live in the byte budget every project shares ({@link PastCheckpoints}), so one may be
 * dropped and built again by the next replay that passes it; and at most `most` per project (past that, every
 * other one goes and the interval doubles).
 *
 * @example const states = new PastStates(store, projectModel('default'), new PastCheckpoints()); await states.stateAt(1200, 1)
 */
export class PastStates {
  /** Records after which a checkpoint was kept, ascending; the budget may have dropped some since. */
  private seqs: number[] = [];
  private interval: number;
  private readonly owner: string;
  private ahead: Ahead | null = null;
  /** Past views replaying on their own now, and the replay ahead's resumption while it waits for them. */
  private foreground = 0;
  private paused: (() => void)[] = [];

  constructor(private readonly store: Store, private readonly model: ProjectModel, private readonly checkpoints: PastCheckpoints, private readonly bounds: CheckpointBounds = DEFAULT_BOUNDS) {
    this.interval = bounds.interval;
    this.owner = checkpoints.owner();
  }

  /**
   * The state after record `seq`, when the log from `firstLogSeq` (the first record it holds) and the
   * checkpoints and snapshots reach it; otherwise the earliest sequence number reachable (null: none). While
   * a replay runs ahead from before `seq` (and no snapshot is nearer), waits for it to keep the checkpoint
   * before `seq` rather than replaying the same records beside it.
   */
  async stateAt(seq: number, firstLogSeq: number): Promise<ProjectState | { earliest: number | null }> {
    // A replay running ahead pauses meanwhile (but for a wait on it): sharing the CPU would double this view's time.
    this.foreground += 1;
    try {
      const ahead = this.ahead;
      const target = seq - (seq % this.interval);
      if (ahead && ahead.from <= seq && ahead.at < target) {
        // A snapshot well past where the replay ahead is now is the nearer start (`baseFor`): no wait for it.
        const heads = await this.snapshotSeqs();
        if (!heads.some((h) => h <= seq && h >= firstLogSeq - 1 && h - ahead.at > this.bounds.interval)) {
          this.release();
          await new Promise<void>((resolve) => ahead.waiters.push({ seq: target, resolve }));
          this.foreground += 1;
        }
      }
      const base = await this.baseFor(seq, firstLogSeq);
      if ('earliest' in base) return base;
      return await this.replay(base, seq);
    } finally {
      this.release();
    }
  }

  /** Ends one view's own work; the last one lets the replay ahead go on. */
  private release(): void {
    this.foreground -= 1;
    if (this.foreground === 0) for (const resume of this.paused.splice(0)) resume();
  }

  /**
   * Replays from the last checkpoint (or the earliest start the log allows) to `lastSeq`, keeping
   * checkpoints all the way: unlike {@link stateAt}, never from a later snapshot, which would skip them.
   */
  async prepare(lastSeq: number, firstLogSeq: number): Promise<void> {
    const floor = firstLogSeq - 1;
    const checkpoint = this.checkpoint((s) => s >= floor);
    const base = checkpoint ? this.fromCheckpoint(checkpoint) : floor === 0 ? this.empty() : await this.snapshotBase(floor, Math.min(...(await this.snapshotSeqs()).filter((h) => h >= floor)));
    if (!base || base.seq >= lastSeq) return;
    const ahead: Ahead = { from: base.seq, at: base.seq, waiters: [] };
    this.ahead = ahead;
    try {
      await this.replay(base, lastSeq, ahead);
    } finally {
      this.ahead = null;
      for (const waiter of ahead.waiters) waiter.resolve();
    }
  }

  /** The last checkpoint still kept whose record satisfies `fits`; forgets those the budget dropped. */
  private checkpoint(fits: (seq: number) => boolean): Checkpoint | undefined {
    for (let i = this.seqs.length - 1; i >= 0; i -= 1) {
      const seq = this.seqs[i]!;
      if (!fits(seq)) continue;
      const kept = this.checkpoints.get(this.owner, seq);
      if (kept) return kept;
      this.seqs.splice(i, 1);
    }
    return undefined;
  }

  /** The nearest start at or before `seq` whose following records the log still holds. */
  private async baseFor(seq: number, firstLogSeq: number): Promise<Base | { earliest: number | null }> {
    // A base below this would need records LOG_RETENTION dropped.
    const floor = firstLogSeq - 1;
    const checkpoint = this.checkpoint((s) => s <= seq && s >= floor);
    const heads = await this.snapshotSeqs();
    const from = checkpoint?.seq ?? (floor === 0 ? 0 : -Infinity);
    const nearest = Math.max(-Infinity, ...heads.filter((h) => h <= seq && h >= floor));
    // A snapshot is read whole (a few MB at 10,000 flags), at about the cost of replaying a record per item it
    // holds: worth it only when it saves a long replay, of more records than it holds items.
    const saved = nearest - from;
    if (saved > this.bounds.interval && saved > ((await snapshotItems(this.store, this.model.scope, nearest)) ?? 0)) {
      const snapshot = await this.snapshotBase(floor, seq);
      if (snapshot) return snapshot;
    }
    if (checkpoint) return this.fromCheckpoint(checkpoint);
    if (floor === 0) return this.empty();
    return { earliest: await this.earliest(firstLogSeq, heads) };
  }

  /** The earliest record whose state the log from `firstLogSeq`, the snapshots and the checkpoints reach; null: none. */
  async earliest(firstLogSeq: number, heads?: number[]): Promise<number | null> {
    if (firstLogSeq === 1) return 1;
    const reachable = [...(heads ?? (await this.snapshotSeqs())), ...this.seqs.filter((s) => this.checkpoints.has(this.owner, s))].filter((s) => s >= firstLogSeq - 1);
    return reachable.length > 0 ? Math.max(firstLogSeq, Math.min(...reachable)) : null;
  }

  /** The newest good snapshot at or before `atMost`, when the log after it is kept (its seq is at least `floor`). */
  private async snapshotBase(floor: number, atMost: number): Promise<Base | null> {
    if (!Number.isFinite(atMost)) return null;
    const snapshot = await migratedSnapshot<ProjectSnapshotMeta, Flag>(this.store, this.model, [], atMost);
    return snapshot && snapshot.head.seq >= floor ? { seq: snapshot.head.seq, state: stateFromSnapshot(snapshot.head.meta, snapshot.items) } : null;
  }

  /** A checkpoint as a start: its own copy of the map, since replaying publishes into it. */
  private fromCheckpoint(checkpoint: Checkpoint): Base {
    return { seq: checkpoint.seq, state: { meta: checkpoint.meta, flags: new Map(checkpoint.flags), changeRequests: checkpoint.changeRequests, version: 0 }, kept: checkpoint.flags };
  }

  private empty(): Base {
    return { seq: 0, state: emptyProject(this.projectId) };
  }

  /** Evolves `base` through the records after it up to `seq`, keeping checkpoints on the way; reports to `ahead`. */
  private async replay(base: Base, seq: number, ahead?: Ahead): Promise<ProjectState> {
    let state = base.state;
    let draft = this.model.fork(state);
    // Replayed from a snapshot, the first checkpoint alone holds the flags it did not set: count them all.
    let shared = base.kept !== undefined || base.seq === 0;
    for await (const record of readLog<unknown, ProjectEvent>(this.store, this.model.scope, base.seq, seq)) {
      for (const event of record.events) this.model.evolve(draft, event);
      if (record.seq % this.interval === 0 && !this.checkpoints.has(this.owner, record.seq)) {
        const own = shared ? [...draft.setFlags()] : undefined;
        state = this.model.publish(state, draft);
        const checkpoint = { seq: record.seq, meta: state.meta, flags: new Map(state.flags), changeRequests: state.changeRequests };
        this.keep(checkpoint, own ?? checkpoint.flags.values());
        shared = true;
        draft = this.model.fork(state);
      }
      if (ahead) {
        ahead.at = record.seq;
        if (ahead.waiters.length > 0) ahead.waiters = ahead.waiters.filter((w) => (w.seq <= record.seq ? (w.resolve(), false) : true));
        // Records read ahead come without a turn of the event loop between them: let requests in now and then.
        if (record.seq % AHEAD_SLICE === 0) {
          await nextTurn();
          while (this.foreground > 0) await new Promise<void>((resume) => this.paused.push(resume));
        }
      }
    }
    return this.model.publish(state, draft);
  }

  private keep(checkpoint: Checkpoint, own: Iterable<Flag>): void {
    this.checkpoints.set(this.owner, checkpoint, own);
    if (!this.seqs.includes(checkpoint.seq)) {
      this.seqs.push(checkpoint.seq);
      this.seqs.sort((a, b) => a - b);
    }
    while (this.seqs.length > this.bounds.most) {
      this.interval *= 2;
      for (const s of this.seqs) if (s % this.interval !== 0) this.checkpoints.delete(this.owner, s);
      this.seqs = this.seqs.filter((s) => s % this.interval === 0);
    }
  }

  /** Sequence numbers of the snapshot heads the store holds (keys only). */
  private async snapshotSeqs(): Promise<number[]> {
    const prefix = keys.snapshotPrefix(this.model.scope);
    const seqs: number[] = [];
    for await (const key of this.store.keys(prefix)) if (key.endsWith('/head')) seqs.push(Number(key.slice(prefix.length, prefix.length + seqPart(0).length)));
    return seqs;
  }

  private get projectId(): string {
    const scope = this.model.scope;
    return scope === 'service' ? '' : scope.project;
  }
}
