import { keys, seqPart } from '../../snapshots/keys.js';
import { readLog } from '../../snapshots/recovery.js';
import type { Store } from '../../snapshots/store.js';
import type { ProjectEvent } from '../domain/events.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Flag, ProjectMeta } from '../domain/types.js';
import { emptyProject, stateFromSnapshot, type ProjectModel } from './project-model.js';
import { migratedSnapshot } from './recover.js';

/** A state kept while replaying: the flag map is a copy, the flags and meta are the (immutable) records. */
interface Checkpoint {
  seq: number;
  meta: ProjectMeta;
  flags: Map<string, Flag>;
}

/** Where a replay starts: a state and the last record it includes. */
interface Base {
  seq: number;
  state: ProjectState;
}

/** How often states are kept while replaying, at first, and how many at most (see {@link PastStates}). */
export interface CheckpointBounds {
  interval: number;
  most: number;
}

const DEFAULT_BOUNDS: CheckpointBounds = { interval: 2048, most: 64 };

/**
 * States of one project after past log records, from snapshots plus the log (the dump engine's way).
 * Replaying 100,000 records takes a second or more and the store keeps only its two newest snapshots, so
 * the states met while replaying are kept in memory as checkpoints every `interval` records, built lazily
 * (or ahead, by {@link prepare}, which the history page starts): a past state then costs one interval of
 * replay at most. At most 64 are kept (past that, every other one goes and the interval doubles), so memory
 * stays at 64 flag maps plus the flag versions only they hold.
 *
 * @example const states = new PastStates(store, projectModel('default')); await states.stateAt(1200, 1)
 */
export class PastStates {
  private checkpoints: Checkpoint[] = [];
  private interval: number;

  constructor(private readonly store: Store, private readonly model: ProjectModel, private readonly bounds: CheckpointBounds = DEFAULT_BOUNDS) {
    this.interval = bounds.interval;
  }

  /**
   * The state after record `seq`, when the log from `firstLogSeq` (the first record it holds) and the
   * checkpoints and snapshots reach it; otherwise the earliest sequence number reachable (null: none).
   */
  async stateAt(seq: number, firstLogSeq: number): Promise<ProjectState | { earliest: number | null }> {
    const base = await this.baseFor(seq, firstLogSeq);
    if ('earliest' in base) return base;
    return this.replay(base, seq);
  }

  /**
   * Replays from the last checkpoint (or the earliest start the log allows) to `lastSeq`, keeping
   * checkpoints all the way: unlike {@link stateAt}, never from a later snapshot, which would skip them.
   */
  async prepare(lastSeq: number, firstLogSeq: number): Promise<void> {
    const floor = firstLogSeq - 1;
    const checkpoint = this.checkpoints.findLast((c) => c.seq >= floor);
    const base = checkpoint ? this.fromCheckpoint(checkpoint) : floor === 0 ? this.empty() : await this.snapshotBase(floor, Math.min(...(await this.snapshotSeqs()).filter((h) => h >= floor)));
    if (base && base.seq < lastSeq) await this.replay(base, lastSeq);
  }

  /** The nearest start at or before `seq` whose following records the log still holds. */
  private async baseFor(seq: number, firstLogSeq: number): Promise<Base | { earliest: number | null }> {
    // A base below this would need records LOG_RETENTION dropped.
    const floor = firstLogSeq - 1;
    const checkpoint = this.checkpoints.findLast((c) => c.seq <= seq && c.seq >= floor);
    const heads = await this.snapshotSeqs();
    const from = checkpoint?.seq ?? (floor === 0 ? 0 : -Infinity);
    // A snapshot is read whole (a few MB at 10,000 flags): worth it only when it saves a long replay.
    if (heads.some((h) => h <= seq && h >= floor && h - from > this.bounds.interval)) {
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
    const reachable = [...(heads ?? (await this.snapshotSeqs())), ...this.checkpoints.map((c) => c.seq)].filter((s) => s >= firstLogSeq - 1);
    return reachable.length > 0 ? Math.max(firstLogSeq, Math.min(...reachable)) : null;
  }

  /** The newest good snapshot at or before `atMost`, when the log after it is kept (its seq is at least `floor`). */
  private async snapshotBase(floor: number, atMost: number): Promise<Base | null> {
    if (!Number.isFinite(atMost)) return null;
    const snapshot = await migratedSnapshot<ProjectMeta, Flag>(this.store, this.model, [], atMost);
    return snapshot && snapshot.head.seq >= floor ? { seq: snapshot.head.seq, state: stateFromSnapshot(snapshot.head.meta, snapshot.items) } : null;
  }

  /** A checkpoint as a start: its own copy of the map, since replaying publishes into it. */
  private fromCheckpoint(checkpoint: Checkpoint): Base {
    return { seq: checkpoint.seq, state: { meta: checkpoint.meta, flags: new Map(checkpoint.flags), version: 0 } };
  }

  private empty(): Base {
    return { seq: 0, state: emptyProject(this.projectId) };
  }

  /** Evolves `base` through the records after it up to `seq`, keeping checkpoints on the way. */
  private async replay(base: Base, seq: number): Promise<ProjectState> {
    let state = base.state;
    let draft = this.model.fork(state);
    for await (const record of readLog<unknown, ProjectEvent>(this.store, this.model.scope, base.seq, seq)) {
      for (const event of record.events) this.model.evolve(draft, event);
      if (record.seq % this.interval === 0 && !this.checkpoints.some((c) => c.seq === record.seq)) {
        state = this.model.publish(state, draft);
        this.keep({ seq: record.seq, meta: state.meta, flags: new Map(state.flags) });
        draft = this.model.fork(state);
      }
    }
    return this.model.publish(state, draft);
  }

  private keep(checkpoint: Checkpoint): void {
    this.checkpoints.push(checkpoint);
    this.checkpoints.sort((a, b) => a.seq - b.seq);
    while (this.checkpoints.length > this.bounds.most) {
      this.interval *= 2;
      this.checkpoints = this.checkpoints.filter((c) => c.seq % this.interval === 0);
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
