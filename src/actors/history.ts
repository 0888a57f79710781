import { decode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { LogRecord } from '../../snapshots/records.js';
import type { Store } from '../../snapshots/store.js';
import type { ProjectCommand } from '../domain/commands.js';
import type { ProjectEvent } from '../domain/events.js';

/** One change, as the history endpoint lists it (docs/storage.md "History"). */
export interface HistoryEntry {
  /** The log record's sequence number; one command may record several events under one seq. */
  seq: number;
  type: ProjectEvent['type'];
  project: string;
  feature: string | null;
  environment: string | null;
  /** Who sent the command: `admin-token:<name>`, `user:<id>` or `system`. */
  by: string;
  at: string;
  /** The flag (or project meta) before and after; null where it did not exist. */
  before: unknown;
  after: unknown;
}

export interface HistoryQuery {
  feature?: string | undefined;
  offset: number;
  limit: number;
}

export interface HistoryPage {
  events: HistoryEntry[];
  offset: number;
  limit: number;
  /** Whether entries older than this page exist. */
  hasMore: boolean;
}

/** The entries of one log record, in the order they happened. */
export function entriesOf(project: string, record: LogRecord<ProjectCommand, ProjectEvent>): HistoryEntry[] {
  const commandEnvironment = 'environment' in record.command ? record.command.environment : null;
  const entry = (event: ProjectEvent, feature: string | null, environment: string | null, before: unknown, after: unknown): HistoryEntry =>
    ({ seq: record.seq, type: event.type, project, feature, environment, by: record.by, at: record.at, before, after });
  return record.events.map((event) => {
    switch (event.type) {
      case 'project.created':
        return entry(event, null, null, null, event.meta);
      case 'project.updated':
        return entry(event, null, commandEnvironment, event.before, event.meta);
      case 'flag.deleted':
        return entry(event, event.name, null, event.before, null);
      default:
        return entry(event, event.flag.name, event.environment ?? commandEnvironment, event.before, event.flag);
    }
  });
}

/**
 * A page of a project's history, newest first, read from its command log (records trimmed by
 * LOG_RETENTION are gone from it). Reads back from the end and stops once the page is full, so recent
 * pages are cheap however long the log is.
 */
export async function readHistory(store: Store, project: string, query: HistoryQuery): Promise<HistoryPage> {
  const events: HistoryEntry[] = [];
  let skipped = 0;
  let hasMore = false;
  scan: for await (const [key, value] of store.entries(keys.logPrefix({ project }), { reverse: true })) {
    const record = decode<LogRecord<ProjectCommand, ProjectEvent>>(key, value);
    for (const entry of entriesOf(project, record).reverse()) {
      if (query.feature !== undefined && entry.feature !== query.feature) continue;
      if (skipped < query.offset) {
        skipped += 1;
        continue;
      }
      if (events.length === query.limit) {
        hasMore = true;
        break scan;
      }
      events.push(entry);
    }
  }
  return { events, offset: query.offset, limit: query.limit, hasMore };
}
