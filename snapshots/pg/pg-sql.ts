import { parseLogKey, type LogKey } from '../keys.js';
import type { BatchOp } from '../store.js';
import type { Tables } from './pg-schema.js';

/** A batch of ops as the write statement takes them: one array per column, each key once. */
export interface WriteArrays {
  /** Log records appended, in the order of the ops: their revs follow this order. */
  appended: (LogKey & { record: string })[];
  removed: LogKey[];
  putKeys: string[];
  putValues: string[];
  delKeys: string[];
}

/**
 * Sorts `ops` into the write statement's arrays, by table (log records by their key, `parseLogKey`), each key
 * once: the last op of a key wins, in the place of its first (one statement cannot touch a row twice).
 */
export function writeArrays(ops: readonly BatchOp[]): WriteArrays {
  const last = new Map<string, BatchOp>();
  for (const op of ops) last.set(op.key, op);
  const arrays: WriteArrays = { appended: [], removed: [], putKeys: [], putValues: [], delKeys: [] };
  for (const op of last.values()) {
    const log = parseLogKey(op.key);
    if (log) {
      if (op.type === 'put') arrays.appended.push({ ...log, record: op.value });
      else arrays.removed.push(log);
    } else if (op.type === 'put') {
      arrays.putKeys.push(op.key);
      arrays.putValues.push(op.value);
    } else {
      arrays.delKeys.push(op.key);
    }
  }
  return arrays;
}

/**
 * The parameters of {@link writeStatement} for `arrays`; `expected`: the counter the write is conditional on
 * (null: written whatever the counter holds).
 */
export function writeValues(arrays: WriteArrays, expected: number | null = null): unknown[] {
  const { appended, removed } = arrays;
  return [
    appended.map((a) => a.scope), appended.map((a) => a.seq), appended.map((a) => a.record),
    removed.map((r) => r.scope), removed.map((r) => r.seq),
    arrays.putKeys, arrays.putValues, arrays.delKeys, appended.length, expected,
  ];
}

/**
 * One statement that writes a whole batch in its own (implicit) transaction, one round trip: the counter
 * moves by the number of records appended (its row lock orders appends across nodes until the commit),
 * each record gets its rev, log records are INSERTed (a taken `(scope, seq)` is a unique violation, never
 * overwritten), other keys upserted or deleted, and the channel is told the last rev. Answers `rev`, the last
 * rev handed out (null when nothing was appended), and `open`. With an expected counter (`$10`, not null)
 * the write is conditional: it writes only if the counter holds that value (read under the row lock when it
 * appends, else as of the statement's start), and answers `open` false having written nothing otherwise.
 * `unsynced`: the commit does not wait for the WAL flush.
 */
export function writeStatement(t: Tables, unsynced: boolean): { name: string; text: string } {
  const text = `WITH counter AS (
      UPDATE ${t.counter} SET rev = rev + $9 WHERE id = 1 AND $9 > 0 AND ($10::bigint IS NULL OR rev = $10::bigint) RETURNING rev),
    gate AS (
      SELECT CASE WHEN $10::bigint IS NULL THEN true WHEN $9 > 0 THEN EXISTS (SELECT 1 FROM counter)
        ELSE (SELECT rev FROM ${t.counter} WHERE id = 1) = $10::bigint END AS open),
    appended AS (
      INSERT INTO ${t.log} (scope, seq, rev, record)
      SELECT a.scope, a.seq, c.rev - $9 + a.n, a.record
      FROM counter c, unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS a(scope, seq, record, n)),
    log_removed AS (
      DELETE FROM ${t.log} l USING unnest($4::text[], $5::bigint[]) AS d(scope, seq)
      WHERE l.scope = d.scope AND l.seq = d.seq AND (SELECT open FROM gate)),
    put AS (
      INSERT INTO ${t.kv} (key, value) SELECT p.key, p.value FROM unnest($6::text[], $7::text[]) AS p(key, value)
      WHERE (SELECT open FROM gate)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value),
    removed AS (DELETE FROM ${t.kv} WHERE key = ANY($8::text[]) AND (SELECT open FROM gate))
    SELECT (SELECT rev FROM counter)::text AS rev, (SELECT open FROM gate) AS open,
      (SELECT count(*) FROM (SELECT pg_notify('${t.channel.replace(/'/g, "''")}', rev::text) FROM counter) n) AS notified
      ${unsynced ? ", set_config('synchronous_commit', 'off', true) AS unsynced" : ''}`;
  return { name: `flagpole_write${unsynced ? '_unsynced' : ''}`, text };
}

/** Which of `appended` the log holds already: the conflicts of a write refused by the log's primary key. */
export function takenStatement(t: Tables, appended: readonly LogKey[]): { text: string; values: unknown[] } {
  return {
    text: `SELECT l.scope, l.seq::text AS seq FROM ${t.log} l JOIN unnest($1::text[], $2::bigint[]) AS a(scope, seq)
           ON l.scope = a.scope AND l.seq = a.seq`,
    values: [appended.map((a) => a.scope), appended.map((a) => a.seq)],
  };
}
