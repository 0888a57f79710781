import type pg from 'pg';
import type { TransactionReads, TransactionWork } from '../shared-log.js';
import { unavailable } from './pg-errors.js';
import type { DatabaseOptions } from './pg-options.js';
import { PgReads } from './pg-reads.js';
import type { Tables } from './pg-schema.js';
import { writeArrays, writeStatement, writeValues } from './pg-sql.js';

/** Ops per write statement of a transaction (as `writeInSlices` slices a large batch). */
const SLICE = 500;

/** What a transaction runs on: the pool it takes a connection from, the tables, the URL its errors are scrubbed of. */
export interface TransactionPlace {
  pool: pg.Pool;
  tables: Tables;
  options: Pick<DatabaseOptions, 'url'>;
}

/**
 * `SharedLog.transact` on PostgreSQL: one pooled connection, `BEGIN`, the advisory transaction lock `lock`
 * (released by the COMMIT or ROLLBACK, or by the server when the connection dies), `work` reading through the
 * same connection, its ops written a slice per statement, `COMMIT`. A database failure rejects with a
 * `StoreUnavailableError` (scrubbed); an error of `work` rejects as it is, after the ROLLBACK.
 */
export async function runTransaction<T>(place: TransactionPlace, lock: [number, number], work: (tx: TransactionReads) => Promise<TransactionWork<T>>, sync: boolean): Promise<T> {
  const failed = (error: unknown, doing: string) => unavailable(error, place.options, doing);
  const client = await place.pool.connect().catch((error: unknown) => { throw failed(error, 'begin a transaction'); });
  let ofWork = false;
  try {
    await client.query('BEGIN');
    if (!sync) await client.query('SET LOCAL synchronous_commit = off');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', lock);
    const reads = new PgReads(client, place.tables);
    const tx: TransactionReads = {
      get: (key) => reads.get(key).catch((error: unknown) => { throw failed(error, 'read'); }),
      async *entries(prefix, options = {}) {
        const range = reads.range(prefix, options, true);
        for (;;) {
          const next = await range.next().catch((error: unknown) => { throw failed(error, 'read'); });
          if (next.done) return;
          yield next.value;
        }
      },
    };
    ofWork = true;
    const { ops, result } = await work(tx);
    ofWork = false;
    for (let i = 0; i < ops.length; i += SLICE) {
      await client.query({ ...writeStatement(place.tables, false), values: writeValues(writeArrays(ops.slice(i, i + SLICE))) });
    }
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    // The connection is not trusted again after a failure (the outcome of a COMMIT cut short is the server's).
    client.release(true);
    // What `work` threw is its own (its reads' failures are already the store's errors).
    throw ofWork ? error : failed(error, 'run a transaction');
  }
}
