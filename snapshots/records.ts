/** One entry of a command log: the command as accepted and the events it produced. */
export interface LogRecord<C = unknown, E = unknown> {
  seq: number;
  /** ISO time the command was decided. */
  at: string;
  /** Who sent it: `admin-token:<name>`, `user:<id>`, `system`. */
  by: string;
  command: C;
  events: E[];
}

/** The head of a snapshot: written last, so a snapshot without a readable head does not exist. */
export interface SnapshotHead<M = unknown> {
  seq: number;
  at: string;
  /** Number of item chunks written before the head. */
  chunks: number;
  items: number;
  /** Versions of the machines whose values the items hold, for migrations of old data. */
  machines: Record<string, number>;
  meta: M;
}

/** A decoded snapshot: the head's meta plus every item, in stored order. */
export interface Snapshot<M = unknown, I = unknown> {
  head: SnapshotHead<M>;
  items: I[];
  /** Stored size of the snapshot, characters; the next one is due when the log has grown by as much. */
  bytes: number;
}
