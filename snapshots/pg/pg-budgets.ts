import type pg from 'pg';
import type { BudgetCharge } from '../shared-log.js';
import { unavailable } from './pg-errors.js';
import type { DatabaseOptions } from './pg-options.js';
import type { Tables } from './pg-schema.js';

/** The database's clock in whole milliseconds: every node charges against one clock. */
const NOW_MS = 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/** How often a node deletes the windows that have ended (every node's charges create rows). */
const CLEAN_EVERY_MS = 60_000;

/**
 * Budgets counted across nodes in the budget table: one row per key holds its current window (start, end,
 * what was used) and whether the last charge was taken. A charge is one `INSERT ... ON CONFLICT DO UPDATE`,
 * which PostgreSQL runs atomically per row, so concurrent charges from every node are counted one after the
 * other and none passes the budget. Rows of ended windows are deleted by each node at most once a minute.
 *
 * @example const charge = await budgets.charge('sign-in:3f…', 1, 10, 60_000); if (!charge.taken) answer429(charge.waitMs);
 */
export class PgBudgets {
  private lastClean = 0;

  constructor(private readonly pool: pg.Pool, private readonly tables: Tables, private readonly options: Pick<DatabaseOptions, 'url'>) {}

  async charge(key: string, cost: number, perWindow: number, windowMs: number): Promise<BudgetCharge> {
    const t = this.tables.budget;
    const { rows } = await this.query<{ start: string; ends: string; granted: boolean; now: string }>(
      `WITH now AS (SELECT ${NOW_MS} AS ms)
       INSERT INTO ${t} AS b (key, start, ends, used, granted)
       SELECT $1, ms, ms + $4::bigint, CASE WHEN $2::int <= $3::int THEN $2::int ELSE 0 END, $2::int <= $3::int FROM now
       ON CONFLICT (key) DO UPDATE SET
         start = CASE WHEN b.ends <= EXCLUDED.start THEN EXCLUDED.start ELSE b.start END,
         ends = CASE WHEN b.ends <= EXCLUDED.start THEN EXCLUDED.ends ELSE b.ends END,
         used = CASE WHEN b.ends <= EXCLUDED.start THEN EXCLUDED.used WHEN b.used + $2::int <= $3::int THEN b.used + $2::int ELSE b.used END,
         granted = CASE WHEN b.ends <= EXCLUDED.start THEN EXCLUDED.granted ELSE b.used + $2::int <= $3::int END
       RETURNING start::text AS start, ends::text AS ends, granted, (SELECT ms FROM now)::text AS now`,
      [key, cost, perWindow, windowMs], 'charge a budget');
    this.cleanSometimes();
    const row = rows[0]!;
    return row.granted ? { taken: true, window: Number(row.start) } : { taken: false, waitMs: Math.max(1, Number(row.ends) - Number(row.now)) };
  }

  async giveBack(key: string, cost: number, window: number): Promise<void> {
    await this.query(`UPDATE ${this.tables.budget} SET used = greatest(0, used - $2::int) WHERE key = $1 AND start = $3::bigint`, [key, cost, window], 'give back to a budget');
  }

  /** Deletes the rows of ended windows, unless this node did so within the last minute; a failure waits for the next. */
  private cleanSometimes(now = Date.now()): void {
    if (now - this.lastClean < CLEAN_EVERY_MS) return;
    this.lastClean = now;
    void this.pool.query(`DELETE FROM ${this.tables.budget} WHERE ends < ${NOW_MS}`).catch(() => undefined);
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[], doing: string): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (error) {
      throw unavailable(error, this.options, doing);
    }
  }
}
