import type pg from 'pg';
import type { WriteGate } from '../disk-faults.js';
import { parseLogKey } from '../keys.js';
import { LogConflictError, StaleBasisError, StoreUnavailableError, type BatchOp, type CommitOptions, type CommitReceipt, type StoreObservers } from '../store.js';
import type { HealthTracker } from '../write-health.js';
import { closeSession, openSession, type Session } from './pg-connection.js';
import { healthLine, unavailable, writeFailure } from './pg-errors.js';
import type { DatabaseOptions } from './pg-options.js';
import { outcomeOf, revsOf } from './pg-outcome.js';
import { OwnRevs, type Expectation } from './pg-own-revs.js';
import type { Tables } from './pg-schema.js';
import { takenStatement, writeArrays, writeStatement, writeValues, type WriteArrays } from './pg-sql.js';

interface Waiter {
  ops: BatchOp[];
  /** The revision its batch was decided on (`CommitOptions.basis`), if it asks to be checked against it. */
  basis: number | undefined;
  resolve: (receipt: CommitReceipt) => void;
  reject: (error: unknown) => void;
}

/** What the group commit works with: where it writes, how it is told to wait, and where it reports. */
export interface CommitParts {
  tables: Tables;
  config: pg.ClientConfig;
  pool: pg.Pool;
  options: DatabaseOptions;
  health: HealthTracker;
  observers: StoreObservers;
  stats: { batches: number; ops: number };
  /** Resolves once this process may write (its node lock is held), rejects when it may not. */
  ready: () => Promise<void>;
  gate?: WriteGate | undefined;
  /** How often an unknown outcome is looked for while the database is unreachable. */
  retryMs: number;
}

/**
 * The PostgreSQL group commit: every {@link commit} that arrives while a write is under way joins the next
 * one, written as one statement (`writeStatement`) over a connection of its own, so N concurrent commands
 * cost one round trip and one WAL flush. A log append at a taken position rejects its caller alone with a
 * {@link LogConflictError} and the rest is written again. A group with callers that carry a basis is written
 * conditional on the counter (`OwnRevs`): refused, those callers get a {@link StaleBasisError} and the rest
 * is written again. When the connection breaks after the statement was sent, the outcome is found out
 * (`outcomeOf`) before the callers are answered, while later groups go on.
 */
export class PgCommits {
  private pending: Waiter[] = [];
  private writing = false;
  private session: Session | null = null;
  /** Outcomes being found out: closing waits for them (or gives them up). */
  private readonly open = new Set<Promise<void>>();
  private closing = false;
  private readonly revs = new OwnRevs();

  constructor(private readonly parts: CommitParts) {}

  commit(ops: BatchOp[], options: CommitOptions = {}): Promise<CommitReceipt> {
    if (this.closing) return Promise.reject(new StoreUnavailableError('PostgreSQL: the store is closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ ops, basis: options.basis, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    // Let commands that arrive in the same tick join the first write.
    await new Promise<void>((r) => setImmediate(r));
    while (this.pending.length > 0) {
      const group = this.pending;
      this.pending = [];
      await this.write(refuseRepeatedAppends(group));
    }
    this.writing = false;
  }

  /** Writes `group` (again without the callers whose appends conflicted or whose basis went stale, until none does). */
  private async write(group: Waiter[]): Promise<void> {
    const { health, tables } = this.parts;
    while (group.length > 0) {
      const expectation = this.revs.expectation(group.flatMap((w) => (w.basis === undefined ? [] : [w.basis])));
      group = refuseStale(group, expectation, 'before');
      if (group.length === 0) return;
      const expected = expectation && group.some((w) => w.basis !== undefined) ? expectation.expected : null;
      const ops = group.length === 1 ? group[0]!.ops : group.flatMap((w) => w.ops);
      const arrays = writeArrays(ops);
      let session: Session;
      health.started();
      try {
        const held = this.parts.gate?.beforeWrite();
        if (held) await held;
        await this.parts.ready();
        session = await this.writer();
      } catch (error) {
        // Nothing was sent: nothing of it is stored.
        this.fail(group, error);
        health.ended();
        return;
      }
      const started = performance.now();
      try {
        const { rows } = await session.client.query<{ rev: string | null; open: boolean }>({ ...writeStatement(tables, false), values: writeValues(arrays, expected) });
        if (rows[0]?.open === false) {
          // Another writer committed since the counter this writer expected: nothing was written.
          this.revs.forget();
          group = refuseStale(group, null, 'after');
          continue;
        }
        const last = rows[0]?.rev === null || rows[0]?.rev === undefined ? null : Number(rows[0].rev);
        this.revs.wrote(expected, arrays.appended.length, last);
        this.parts.observers.committed?.(performance.now() - started, ops.length);
        this.parts.stats.batches += 1;
        this.parts.stats.ops += ops.length;
        health.succeeded();
        answer(group, arrays, last ?? 0);
        return;
      } catch (error) {
        const failure = writeFailure(error, tables.logPrimaryKey);
        if (failure === 'conflict') {
          group = await this.refuseTaken(group, arrays);
          continue;
        }
        if (failure === 'refused') return this.fail(group, error);
        await this.dropWriter();
        this.revs.forget();
        health.failed(healthLine(error));
        if (arrays.appended.length === 0) {
          rejectAll(group, new StoreUnavailableError(`PostgreSQL: the connection broke during a write without log records; it may or may not be stored (${unavailable(error, this.parts.options, 'write').message})`));
          return;
        }
        this.track(this.settle(group, arrays, session));
        return;
      } finally {
        health.ended();
      }
    }
  }

  /** Answers a group whose statement's outcome was open, once it is known (or rejects it when given up). */
  private async settle(group: Waiter[], arrays: WriteArrays, backend: Session): Promise<void> {
    const { config, tables, pool, retryMs } = this.parts;
    const committed = await outcomeOf(config, tables, { backend, witness: arrays.appended[0]! }, retryMs, () => this.closing);
    if (committed === null) return rejectAll(group, new StoreUnavailableError('PostgreSQL: the store closed before the outcome of a write was known'));
    if (!committed) return rejectAll(group, new StoreUnavailableError('PostgreSQL: the connection broke during a write, which was not committed'));
    this.parts.health.succeeded();
    let revs: number[] | null = null;
    try {
      revs = await revsOf(pool, tables, arrays.appended);
    } catch {
      // Committed all the same; only the revs could not be read back.
    }
    const places = placesOf(arrays);
    for (const waiter of group) waiter.resolve({ revs: revs && revsFor(waiter, places, revs) });
  }

  /** Rejects the callers whose appends the log holds already; returns the others, to be written again. */
  private async refuseTaken(group: Waiter[], arrays: WriteArrays): Promise<Waiter[]> {
    let taken: Set<string>;
    try {
      const { rows } = await this.parts.pool.query<{ scope: string; seq: string }>(takenStatement(this.parts.tables, arrays.appended));
      taken = new Set(rows.map((row) => `${row.scope}/${row.seq}`));
    } catch (error) {
      this.fail(group, error);
      return [];
    }
    const rest: Waiter[] = [];
    for (const waiter of group) {
      const conflict = waiter.ops.map((op) => (op.type === 'put' ? parseLogKey(op.key) : null)).find((log) => log && taken.has(`${log.scope}/${log.seq}`));
      if (conflict) waiter.reject(new LogConflictError(conflict.scope, conflict.seq));
      else rest.push(waiter);
    }
    // Taken by none of them (the record was deleted since): refused as the database refused it, not tried forever.
    if (rest.length === group.length) {
      this.fail(group, new StoreUnavailableError('PostgreSQL: a log append was refused as taken, but no record holds its place'));
      return [];
    }
    return rest;
  }

  private fail(group: Waiter[], error: unknown): void {
    this.parts.health.failed(healthLine(error));
    rejectAll(group, unavailable(error, this.parts.options, 'write'));
  }

  /**
   * The group commit's own connection, opened when there is none or it broke. Its write statement keeps one
   * generic plan: left to choose, PostgreSQL plans it anew for every write once the log is large and analyzed,
   * which costs about as much CPU as the write itself.
   */
  private async writer(): Promise<Session> {
    if (this.session && !this.session.broken) return this.session;
    await this.dropWriter();
    const session = await openSession(this.parts.config);
    try {
      await session.client.query('SET plan_cache_mode = force_generic_plan');
    } catch (error) {
      await closeSession(session);
      throw error;
    }
    this.session = session;
    return session;
  }

  private async dropWriter(): Promise<void> {
    const session = this.session;
    this.session = null;
    await closeSession(session);
  }

  private track(settling: Promise<void>): void {
    this.open.add(settling);
    void settling.finally(() => this.open.delete(settling));
  }

  /** Waits for the write under way, gives up outcomes still unknown, and closes the connection. */
  async close(): Promise<void> {
    while (this.writing) await new Promise<void>((r) => setTimeout(r, 1));
    this.closing = true;
    await Promise.all([...this.open]);
    await this.dropWriter();
  }
}

/**
 * Refuses, with a {@link StaleBasisError}, the callers with a basis that the expectation does not hold
 * (`before` the write; every one of them when there is none), or every one of them once the conditional
 * write was refused (`after`); returns the others.
 */
function refuseStale(group: Waiter[], expectation: Expectation | null, when: 'before' | 'after'): Waiter[] {
  return group.filter((waiter) => {
    const basis = waiter.basis;
    if (basis === undefined || (when === 'before' && expectation?.holds(basis))) return true;
    waiter.reject(new StaleBasisError(basis));
    return false;
  });
}

/** The later of two callers appending the same record in one group is refused (it cannot be the next). */
function refuseRepeatedAppends(group: Waiter[]): Waiter[] {
  const seen = new Set<string>();
  return group.filter((waiter) => {
    const appends = waiter.ops.flatMap((op) => (op.type === 'put' && parseLogKey(op.key) ? [op.key] : []));
    const repeated = appends.find((key) => seen.has(key));
    if (repeated) {
      const log = parseLogKey(repeated)!;
      waiter.reject(new LogConflictError(log.scope, log.seq));
      return false;
    }
    for (const key of appends) seen.add(key);
    return true;
  });
}

/** Resolves each caller with the revs of its own appends: the statement handed out `last - n + 1 .. last`. */
function answer(group: Waiter[], arrays: WriteArrays, last: number): void {
  const first = last - arrays.appended.length + 1;
  const revs = arrays.appended.map((_, i) => first + i);
  const places = placesOf(arrays);
  for (const waiter of group) waiter.resolve({ revs: revsFor(waiter, places, revs) });
}

/** Where each appended record stands in `arrays`, by its key. */
function placesOf(arrays: WriteArrays): Map<string, number> {
  return new Map(arrays.appended.map((a, i) => [`${a.scope}/${a.seq}`, i]));
}

/** The revs of `waiter`'s appends, given the revs of every append of its group in `arrays` order. */
function revsFor(waiter: Waiter, places: ReadonlyMap<string, number>, revs: readonly number[]): number[] {
  const mine: number[] = [];
  for (const op of waiter.ops) {
    const log = op.type === 'put' ? parseLogKey(op.key) : null;
    const at = log ? places.get(`${log.scope}/${log.seq}`) : undefined;
    if (at !== undefined && revs[at] !== undefined) mine.push(revs[at]!);
  }
  return mine;
}

function rejectAll(group: Waiter[], error: unknown): void {
  for (const waiter of group) waiter.reject(error);
}
