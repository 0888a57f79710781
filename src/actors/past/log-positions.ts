import { CorruptRecordError, decode } from '../../../snapshots/codec.js';
import { keys, type Scope } from '../../../snapshots/keys.js';
import type { LogRecord } from '../../../snapshots/records.js';
import type { Store } from '../../../snapshots/store.js';

/** A log record's place: its sequence number and when it was committed (ISO). */
export interface LogMark {
  seq: number;
  at: string;
}

/** The first and last records a scope's log holds (the first is past 1 once LOG_RETENTION trimmed it). */
export interface LogBounds {
  first: LogMark;
  last: LogMark;
}

/** Where the record at `seq` was committed; undefined when the log does not hold it. */
export async function markAt(store: Store, scope: Scope, seq: number): Promise<LogMark | undefined> {
  const key = keys.log(scope, seq);
  const value = await store.get(key);
  return value === undefined ? undefined : { seq, at: decode<LogRecord>(key, value).at };
}

/** The first and last records of the log; null for an empty log. Two one-key reads. */
export async function logBounds(store: Store, scope: Scope): Promise<LogBounds | null> {
  const edge = async (reverse: boolean): Promise<LogMark | undefined> => {
    for await (const [key, value] of store.entries(keys.logPrefix(scope), { reverse, limit: 1 })) {
      const { seq, at } = decode<LogRecord>(key, value);
      return { seq, at };
    }
    return undefined;
  };
  const first = await edge(false);
  const last = await edge(true);
  return first && last ? { first, last } : null;
}

/**
 * The last record committed at or before `time` (ISO, compared as text: every `at` is `toISOString()`),
 * found by bisecting the sequence numbers (about 17 reads for 100,000 records): records are stamped in
 * commit order, so their times do not decrease. Undefined when `time` is before the first record held.
 *
 * @example await lastAtOrBefore(store, { project: 'default' }, bounds, '2026-01-01T00:00:00.000Z')
 */
export async function lastAtOrBefore(store: Store, scope: Scope, bounds: LogBounds, time: string): Promise<LogMark | undefined> {
  if (time < bounds.first.at) return undefined;
  if (time >= bounds.last.at) return bounds.last;
  let low = bounds.first;
  let high = bounds.last.seq;
  // Invariant: low.at <= time < at(high).
  while (high - low.seq > 1) {
    const mid = Math.floor((low.seq + high) / 2);
    const mark = await markAt(store, scope, mid);
    if (mark === undefined) throw new CorruptRecordError(keys.log(scope, mid), 'missing record');
    if (mark.at <= time) low = mark;
    else high = mid;
  }
  return low;
}
