import type { Pool, PoolClient } from 'pg';
import { logKeyOf, parseLogKey, prefixEnd, prefixHolds } from '../keys.js';
import type { EntriesOptions } from '../store.js';
import type { Tables } from './pg-schema.js';

/** A range of keys: after `low` (exclusive), up to `high` (inclusive or not). */
interface KeyRange {
  low: string;
  high: string;
  highIncluded: boolean;
}

/** How many rows one trip reads: about `highWaterMarkBytes` of records when asked, else a modest page. */
const pageRows = (options: EntriesOptions, limit: number): number => {
  const rows = options.highWaterMarkBytes === undefined ? 128 : Math.max(64, Math.min(2000, Math.floor(options.highWaterMarkBytes / 256)));
  return limit >= 0 ? Math.min(rows, limit) : rows;
};

/**
 * The range reads of the PostgreSQL store, with LevelDB's semantics: keys starting with a prefix, in byte
 * order (`COLLATE "C"`) or reversed, after `gt`, up to `lte`, at most `limit`, read a page at a time (each
 * page its own statement, continuing after the last key read). A log's records are read from the log table
 * by sequence number; other keys from the key-value table; a prefix that spans both (the empty one) reads
 * both, merged in key order.
 */
export class PgReads {
  /** Reads through `pool`, or through one connection (a transaction's). */
  constructor(private readonly pool: Pool | PoolClient, private readonly t: Tables) {}

  /** The value of `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    const log = parseLogKey(key);
    const result = log
      ? await this.pool.query<{ value: string }>({ name: 'flagpole_get_log', text: `SELECT record AS value FROM ${this.t.log} WHERE scope = $1 AND seq = $2`, values: [log.scope, log.seq] })
      : await this.pool.query<{ value: string }>({ name: 'flagpole_get', text: `SELECT value FROM ${this.t.kv} WHERE key = $1`, values: [key] });
    return result.rows[0]?.value;
  }

  /** Entries (or keys alone, `values: false`, values then empty) of the range, page by page. */
  async *range(prefix: string, options: EntriesOptions, values: boolean): AsyncGenerator<[string, string]> {
    const range: KeyRange = {
      low: options.gt !== undefined && options.gt > prefix ? options.gt : prefix,
      ...(options.lte !== undefined && options.lte < prefixEnd(prefix) ? { high: options.lte, highIncluded: true } : { high: prefixEnd(prefix), highIncluded: false }),
    };
    const reverse = options.reverse ?? false;
    let left = options.limit ?? -1;
    const holds = prefixHolds(prefix);
    const seqs = typeof holds === 'object' ? this.seqRange(holds.log, range) : null;
    while (left !== 0) {
      const rows = pageRows(options, left);
      const page = seqs && typeof holds === 'object'
        ? await this.logPage(holds.log, seqs, reverse, rows, values)
        : await this.keyPage(holds !== 'other', range, reverse, rows, values);
      for (const entry of page) yield entry;
      if (left > 0) left -= page.length;
      if (page.length < rows) return;
      const last = page.at(-1)!;
      if (seqs) {
        const seq = parseLogKey(last[0])!.seq;
        if (reverse) seqs.high = seq - 1;
        else seqs.low = seq;
      } else if (reverse) {
        range.high = last[0];
        range.highIncluded = false;
      } else {
        range.low = last[0];
      }
    }
  }

  /**
   * The sequence numbers of a log's records within `range` (after `low`, up to `high` inclusive), when its
   * bounds are the log's prefix, its end or keys of its records; null otherwise (the key page reads it).
   */
  private seqRange(scope: string, range: KeyRange): { low: number; high: number } | null {
    const prefix = `${scope}/log/`;
    const low = range.low === prefix ? 0 : parseLogKey(range.low)?.seq;
    const highLog = parseLogKey(range.high);
    const high = range.high === prefixEnd(prefix) ? Number.MAX_SAFE_INTEGER : highLog && highLog.scope === scope ? highLog.seq - (range.highIncluded ? 0 : 1) : undefined;
    if (low === undefined || high === undefined || (range.low !== prefix && parseLogKey(range.low)?.scope !== scope)) return null;
    return { low, high };
  }

  private async logPage(scope: string, seqs: { low: number; high: number }, reverse: boolean, rows: number, values: boolean): Promise<[string, string][]> {
    const order = reverse ? 'DESC' : 'ASC';
    const result = await this.pool.query<{ seq: string; value: string }>({
      name: `flagpole_log_page_${order}_${values ? 'v' : 'k'}`,
      text: `SELECT l.seq::text AS seq, ${values ? 'l.record' : "''"} AS value FROM ${this.t.log} l
             WHERE l.scope = $1 AND l.seq > $2 AND l.seq <= $3 ORDER BY l.seq ${order} LIMIT $4`,
      values: [scope, seqs.low, seqs.high, rows],
    });
    return result.rows.map((row) => [logKeyOf(scope, Number(row.seq)), row.value]);
  }

  private async keyPage(mixed: boolean, range: KeyRange, reverse: boolean, rows: number, values: boolean): Promise<[string, string][]> {
    const order = reverse ? 'DESC' : 'ASC';
    const upTo = range.highIncluded ? '<=' : '<';
    const value = values ? 'value' : "''";
    // Every log record under its key, for a prefix that spans logs and other keys: a scan, for tools only.
    const logRows = `SELECT scope || '/log/' || lpad(seq::text, 16, '0') AS key, ${values ? 'record' : "''"} AS value FROM ${this.t.log}`;
    const source = mixed ? `(SELECT key, ${value} AS value FROM ${this.t.kv} UNION ALL ${logRows}) AS s` : this.t.kv;
    const result = await this.pool.query<{ key: string; value: string }>({
      ...(mixed ? {} : { name: `flagpole_kv_page_${order}_${upTo === '<' ? 'lt' : 'le'}_${values ? 'v' : 'k'}` }),
      text: `SELECT key, ${mixed ? 'value' : value} AS value FROM ${source}
             WHERE key COLLATE "C" > $1 AND key COLLATE "C" ${upTo} $2 ORDER BY key COLLATE "C" ${order} LIMIT $3`,
      values: [range.low, range.high, rows],
    });
    return result.rows.map((row) => [row.key, row.value]);
  }
}
