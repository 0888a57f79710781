import type pg from 'pg';
import { SIGNAL_MAX_BYTES, type BudgetCharge, type Contact, type HeldLock, type HeldTurn, type Lease, type SharedLog, type SharedRow, type Signal, type TransactionReads, type TransactionWork } from '../shared-log.js';
import { PgBudgets } from './pg-budgets.js';
import { unavailable } from './pg-errors.js';
import { PgLease } from './pg-lease.js';
import { PgListener } from './pg-listener.js';
import { PgLocks } from './pg-locks.js';
import { PgTurns } from './pg-turns.js';
import type { DatabaseOptions } from './pg-options.js';
import { lockKey, type Tables } from './pg-schema.js';
import { runTransaction } from './pg-transaction.js';

/** How often the listening connection and the leases check themselves, ms. */
export const SHARED_CHECK_MS = 1000;

/**
 * The shared log of a PostgreSQL store (`SharedLog`): the log table read by `rev`, the channel every commit
 * notifies, advisory locks, turns and leases keyed under the schema. Reads go through the store's pool; the
 * listener, each lock and each lease have a connection of their own, and turns a few between them.
 */
export class PgSharedLog implements SharedLog {
  private readonly listener: PgListener;
  private readonly locks: PgLocks;
  private readonly turns: PgTurns;
  private readonly leases: PgLease[] = [];
  private readonly budgets: PgBudgets;

  constructor(
    private readonly pool: pg.Pool,
    private readonly config: pg.ClientConfig,
    private readonly tables: Tables,
    private readonly options: Pick<DatabaseOptions, 'url'>,
    private readonly checkMs = SHARED_CHECK_MS,
  ) {
    this.listener = new PgListener(config, { log: tables.channel, signals: tables.signals }, checkMs);
    this.locks = new PgLocks(config);
    this.turns = new PgTurns(config, tables, options);
    this.budgets = new PgBudgets(pool, tables, options);
  }

  async head(): Promise<number> {
    const { rows } = await this.query<{ rev: string }>(`SELECT rev::text AS rev FROM ${this.tables.counter} WHERE id = 1`, []);
    return Number(rows[0]?.rev ?? 0);
  }

  async since(after: number, options: { upTo?: number | undefined; limit: number }): Promise<SharedRow[]> {
    const bounded = options.upTo !== undefined;
    const { rows } = await this.query<{ rev: string; scope: string; seq: string; record: string }>(
      // `l.rev`, not `rev`: a bare name in ORDER BY means the output column, here text ('10' before '6').
      `SELECT l.rev::text AS rev, l.scope, l.seq::text AS seq, l.record FROM ${this.tables.log} l
       WHERE l.rev > $1${bounded ? ' AND l.rev <= $3' : ''} ORDER BY l.rev LIMIT $2`,
      bounded ? [after, options.limit, options.upTo] : [after, options.limit]);
    return rows.map((row) => ({ rev: Number(row.rev), scope: row.scope, seq: Number(row.seq), record: row.record }));
  }

  listen(listener: (rev: number | null) => void): () => void {
    return this.listener.listen(listener);
  }

  lock(name: string, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<HeldLock> {
    return this.locks.lock(name, lockKey(`lock:${name}`, this.tables.schema), mode);
  }

  turn(scope: string): Promise<HeldTurn> {
    return this.turns.take(lockKey(`turn:${scope}`, this.tables.schema));
  }

  lease(name: string): Lease {
    const lease = new PgLease(this.config, lockKey(`lease:${name}`, this.tables.schema), this.checkMs);
    this.leases.push(lease);
    return lease;
  }

  contact(now = Date.now()): Contact {
    return this.listener.contact(now);
  }

  charge(key: string, cost: number, perWindow: number, windowMs: number): Promise<BudgetCharge> {
    return this.budgets.charge(key, cost, perWindow, windowMs);
  }

  giveBack(key: string, cost: number, window: number): Promise<void> {
    return this.budgets.giveBack(key, cost, window);
  }

  async signal(topic: string, message: string): Promise<void> {
    const payload = `${topic}\n${message}`;
    if (topic === '' || topic.includes('\n') || Buffer.byteLength(payload) > SIGNAL_MAX_BYTES) {
      throw new RangeError(`a signal's topic is one non-empty line and it holds at most ${SIGNAL_MAX_BYTES} bytes`);
    }
    await this.query('SELECT pg_notify($1, $2)', [this.tables.signals, payload], 'send a signal');
  }

  onSignal(listener: (signal: Signal | null) => void): () => void {
    return this.listener.onSignal(listener);
  }

  async replaceExisting(key: string, value: string): Promise<void> {
    await this.query(`UPDATE ${this.tables.kv} SET value = $2 WHERE key = $1`, [key, value], 'write');
  }

  /** A lock of the same name as {@link lock}'s: a transaction waits for a holder of `lock(name)` and the other way round. */
  transact<T>(name: string, work: (tx: TransactionReads) => Promise<TransactionWork<T>>, options: { sync: boolean }): Promise<T> {
    return runTransaction({ pool: this.pool, tables: this.tables, options: this.options }, lockKey(`lock:${name}`, this.tables.schema), work, options.sync);
  }

  async close(): Promise<void> {
    await Promise.all([this.listener.close(), this.locks.close(), this.turns.close(), ...this.leases.map((lease) => lease.close())]);
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[], doing = 'read the shared log'): Promise<pg.QueryResult<R>> {
    try {
      const result = await this.pool.query<R>(text, values);
      this.listener.heard();
      return result;
    } catch (error) {
      throw unavailable(error, this.options, doing);
    }
  }
}
