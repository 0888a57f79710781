/**
 * The shapes of the store's writes and range reads, shared by the store (`store.ts`) and what several nodes
 * share (`shared-log.ts`, whose transactions write and read the same way).
 */

/** One write of a batch: a put or a delete of a string key. */
export type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** A range read: key order (or reversed), after `gt`, up to `lte`, at most `limit` entries. */
export interface EntriesOptions {
  reverse?: boolean;
  gt?: string;
  lte?: string;
  limit?: number;
  /** How much to read ahead per trip to the store, in bytes (LevelDB's iterator; PostgreSQL sizes its pages by it). */
  highWaterMarkBytes?: number;
}
