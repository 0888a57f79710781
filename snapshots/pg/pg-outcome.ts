import type pg from 'pg';
import type { LogKey } from '../keys.js';
import { closeSession, openSession, type Session } from './pg-connection.js';
import type { Tables } from './pg-schema.js';

/** A write whose connection broke after it was sent: the backend that ran it, and one record it appended. */
export interface OpenOutcome {
  backend: Pick<Session, 'pid' | 'started'>;
  /** A log record the write appended: present with this text means the write committed (it was atomic). */
  witness: LogKey & { record: string };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Finds out whether a write whose connection broke after it was sent committed, over a new connection (tried
 * every `retryMs` while the database is unreachable, until `givenUp()`): first its backend is ended if it
 * still runs, and waited for until it is gone, so its transaction is over (committed or rolled back) and
 * cannot commit later; then the witness record tells. Resolves true (committed) or false (not), or null
 * when given up before knowing.
 *
 * @example await outcomeOf(config, tables, { backend, witness }, 250, () => closing) // true: publish it
 */
export async function outcomeOf(config: pg.ClientConfig, t: Tables, open: OpenOutcome, retryMs: number, givenUp: () => boolean): Promise<boolean | null> {
  const { pid, started } = open.backend;
  for (;;) {
    if (givenUp()) return null;
    let session: Session | null = null;
    try {
      session = await openSession(config);
      const backend = `FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2`;
      await session.client.query(`SELECT pg_terminate_backend(pid) ${backend}`, [pid, started]);
      while ((await session.client.query(`SELECT 1 ${backend}`, [pid, started])).rowCount) {
        if (givenUp()) return null;
        await pause(20);
      }
      const { rows } = await session.client.query<{ record: string }>(
        `SELECT record FROM ${t.log} WHERE scope = $1 AND seq = $2`, [open.witness.scope, open.witness.seq]);
      return rows[0]?.record === open.witness.record;
    } catch {
      await pause(retryMs);
    } finally {
      await closeSession(session);
    }
  }
}

/** The revs of `appended` (in its order) as the log holds them: for a write found committed after the fact. */
export async function revsOf(pool: pg.Pool, t: Tables, appended: readonly LogKey[]): Promise<number[]> {
  const { rows } = await pool.query<{ n: string; rev: string }>(
    `SELECT a.n::text AS n, l.rev::text AS rev FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS a(scope, seq, n)
     JOIN ${t.log} l ON l.scope = a.scope AND l.seq = a.seq ORDER BY a.n`,
    [appended.map((a) => a.scope), appended.map((a) => a.seq)]);
  return rows.map((row) => Number(row.rev));
}
