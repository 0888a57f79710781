import { CorruptRecordError, decode } from '../../../snapshots/codec.js';
import { keys } from '../../../snapshots/keys.js';
import type { LogRecord } from '../../../snapshots/records.js';
import type { Store } from '../../../snapshots/store.js';
import { fail, type DomainError } from '../../domain/errors.js';
import type { ProjectState } from '../../domain/project-state.js';
import { failed, ok, type Result } from '../../domain/result.js';
import type { ProjectActor } from '../actor-types.js';
import { readHistory, type HistoryPage, type HistoryQuery } from './history.js';
import { lastAtOrBefore, logBounds, markAt } from './log-positions.js';
import type { PastCheckpoints } from './past-checkpoints.js';
import { checkpointsFor, PastStates } from './past-states.js';
import { projectModel } from '../project-model.js';
import { IncompatibleSnapshotError } from '../recovery/recover.js';

/** A project as it was at a moment: the last record committed at or before it, and the state after it. */
export interface Moment {
  /** The moment asked for (ISO). */
  asked: string;
  /** The last record committed at or before it: its sequence number and commit time. */
  seq: number;
  at: string;
  /** The project's meta and flags after that record; a copy nobody else changes. */
  state: ProjectState;
}

/**
 * Why a moment cannot be shown (a 404 `NotFoundError` for the API): `before-project`, the project did not
 * exist yet (`earliest`: when it was created); `trimmed`, LOG_RETENTION dropped the records that lead to it
 * (`earliest`: the earliest moment that can still be shown, null when none can).
 */
export interface MomentError extends DomainError {
  kind: 'NotFoundError';
  reason: 'before-project' | 'trimmed';
  earliest: string | null;
}

/** Whether a failure is a {@link MomentError}, so a page can say which moments can be shown. */
export const isMomentError = (error: DomainError): error is MomentError => 'reason' in error;

const momentError = (reason: MomentError['reason'], message: string, earliest: string | null): MomentError =>
  ({ ...fail('NotFoundError', message), kind: 'NotFoundError', reason, earliest });

/** Records below which a log gets no checkpoints built ahead: one checkpoint interval, replayed in tens of ms. */
const WARM_FROM_RECORDS = 2048;

/**
 * A project's past, read from its log and snapshots: pages of its history, and its state at any moment the
 * kept log reaches. One per served actor (a project deleted and created again gets a new one), so the
 * checkpoints of {@link PastStates} are never those of another project of the same id.
 */
export class ProjectPast {
  private readonly states: PastStates;
  private readonly id: string;

  constructor(private readonly store: Store, private readonly actor: ProjectActor, private readonly checkpoints: PastCheckpoints) {
    this.id = actor.state.meta.id;
    this.states = new PastStates(store, projectModel(this.id), checkpoints);
  }

  /** A page of the history, newest first (`history.ts`). */
  history(query: HistoryQuery): Promise<Result<HistoryPage>> {
    return readHistory(this.store, this.id, query);
  }

  /**
   * Who sent the commands of the project's log (`user:3`, `admin-token:ci`, `system`), in the order first met:
   * the history's person filter offers these. The log is read once, then only what was committed since; a
   * damaged record on the way is a 503 naming its key, as for the history.
   */
  people(): Promise<Result<string[]>> {
    const read = this.peopleRead.then(async () => {
      const after = this.authors.seq;
      for await (const [key, value] of this.store.entries(keys.logPrefix(this.scope), after > 0 ? { gt: keys.log(this.scope, after) } : {})) {
        const record = decode<LogRecord>(key, value);
        this.authors.by.add(record.by);
        this.authors.seq = record.seq;
      }
      return ok([...this.authors.by]);
    }).catch((error: unknown) => {
      if (error instanceof CorruptRecordError) return failed<string[]>(fail('Unavailable', error.message));
      throw error;
    });
    this.peopleRead = read.then(() => undefined, () => undefined);
    return read;
  }

  /** The senders met in the log up to record `seq`; one read of it at a time. */
  private readonly authors = { seq: 0, by: new Set<string>() };
  private peopleRead: Promise<void> = Promise.resolve();

  /**
   * The project at `time` (ISO): as of the last command committed at or before it. A damaged record on the
   * way is a 503 naming its key, as for the history.
   *
   * @example const moment = await past.at('2026-03-01T09:30:00.000Z'); if (moment.ok) moment.value.state.flags
   */
  async at(time: string): Promise<Result<Moment>> {
    try {
      return await this.momentAt(time);
    } catch (error) {
      if (error instanceof CorruptRecordError || error instanceof IncompatibleSnapshotError) return failed(fail('Unavailable', error.message));
      throw error;
    }
  }

  /**
   * Builds the checkpoints up to now in the background (once at a time; at start-up and when a history page
   * opens), so a past view is quick; a past view asked meanwhile waits for the checkpoint before its moment.
   * Resolves when done. A log shorter than {@link WARM_FROM_RECORDS} is left alone (its replay is short); a
   * failure (a damaged record) is left to the read that meets it.
   */
  warm(): Promise<void> {
    return (this.warming ??= (async () => {
      const bounds = await logBounds(this.store, this.scope);
      if (bounds && bounds.last.seq - bounds.first.seq >= WARM_FROM_RECORDS) await this.states.prepare(bounds.last.seq, bounds.first.seq);
    })().catch(() => undefined).finally(() => { this.warming = null; }));
  }

  private warming: Promise<void> | null = null;

  /**
   * Whether the checkpoints of the whole log would fit what is left of the budget: a start builds them ahead
   * only then (for a project of 100,000 flags each holds a 4 MB map; its history page still builds them).
   */
  fitsBudget(): boolean {
    return this.checkpoints.fit(checkpointsFor(this.actor.seq), this.actor.state.flags.size);
  }

  private get scope() {
    return { project: this.id };
  }

  private async momentAt(time: string): Promise<Result<Moment>> {
    const bounds = await logBounds(this.store, this.scope);
    const mark = bounds && (await lastAtOrBefore(this.store, this.scope, bounds, time));
    if (!bounds || !mark) {
      if (bounds?.first.seq === 1) return failed(momentError('before-project', `project "${this.id}" did not exist yet at ${time}: it was created at ${bounds.first.at}`, bounds.first.at));
      return failed(await this.trimmed(time, bounds && (await this.states.earliest(bounds.first.seq))));
    }
    // The committed state, copied in the same synchronous step it is read in: publishing changes its map.
    const live = this.actor.state;
    if (mark.seq === this.actor.seq) return ok({ asked: time, seq: mark.seq, at: mark.at, state: { meta: live.meta, flags: new Map(live.flags), changeRequests: live.changeRequests, version: 0 } });
    const state = await this.states.stateAt(mark.seq, bounds.first.seq);
    if ('earliest' in state) return failed(await this.trimmed(time, state.earliest));
    return ok({ asked: time, seq: mark.seq, at: mark.at, state });
  }

  /** The error for a moment the kept log does not reach; `earliestSeq`: the earliest record whose state it reaches. */
  private async trimmed(time: string, earliestSeq: number | null): Promise<MomentError> {
    const earliest = earliestSeq === null ? null : (await markAt(this.store, this.scope, earliestSeq))?.at ?? null;
    const since = earliest === null ? 'no earlier moment is kept' : `the earliest moment kept is ${earliest}`;
    return momentError('trimmed', `the history of project "${this.id}" at ${time} is not kept (trimmed by LOG_RETENTION, or restored from a dump): ${since}`, earliest);
  }
}

const pasts = new WeakMap<ProjectActor, ProjectPast>();

/**
 * The past of the project `actor` serves, kept as long as the actor is; its checkpoints live in `checkpoints`,
 * the byte budget of every project's.
 */
export function pastOf(actor: ProjectActor, store: Store, checkpoints: PastCheckpoints): ProjectPast {
  let past = pasts.get(actor);
  if (!past) pasts.set(actor, (past = new ProjectPast(store, actor, checkpoints)));
  return past;
}
