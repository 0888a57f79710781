import { CorruptRecordError, decode } from '../../../snapshots/codec.js';
import { keys } from '../../../snapshots/keys.js';
import type { LogRecord } from '../../../snapshots/records.js';
import type { Store } from '../../../snapshots/store.js';
import type { ProjectCommand } from '../../domain/commands.js';
import { fail } from '../../domain/errors.js';
import type { ProjectEvent } from '../../domain/events.js';
import { failed, ok, type Result } from '../../domain/result.js';
import { isChangeRequestEvent } from '../../domain/change-request-events.js';
import { appliedIn, requestOf, requestSides, type HistoryChange, type HistoryRequest } from './history-change-requests.js';
import { lastAtOrBefore, logBounds } from './log-positions.js';

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
  /**
   * What the event changed, before and after (the strategy, the metadata, the variants, the archived or
   * enabled state, the project meta; the whole flag when created or deleted); null where it did not exist.
   */
  before: unknown;
  after: unknown;
  /** For strategy and on/off events: whether the environment is enabled afterwards (deleting the last
   * enabled strategy disables it); null otherwise. */
  environmentEnabled: boolean | null;
  /**
   * The change request the entry is about. The record of an applied request is one entry
   * (`change-request.applied`) naming it, with every change it made in `changeRequest.changes`.
   */
  changeRequest?: HistoryRequest;
}

/** Which entries a page lists; every filter given must hold. `offset` counts matching entries. */
export interface HistoryQuery {
  feature?: string | undefined;
  /** Who sent the command, as recorded: `user:3`, `admin-token:ci`, `system`. */
  by?: string | undefined;
  /** Only these event types. */
  types?: ReadonlySet<ProjectEvent['type']> | undefined;
  /** Only records committed at or after `from` and at or before `to` (ISO times, as `toISOString()` writes them). */
  from?: string | undefined;
  to?: string | undefined;
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

/** What an event changed, before and after: the changed part only (a strategy, the metadata, the variants). */
function sides(event: ProjectEvent): { feature: string | null; environment: string | null; before: unknown; after: unknown; environmentEnabled: boolean | null } {
  const on = (feature: string | null, before: unknown, after: unknown, environment: string | null = null, environmentEnabled: boolean | null = null) =>
    ({ feature, environment, before, after, environmentEnabled });
  switch (event.type) {
    case 'project.created':
      return on(null, null, event.meta);
    case 'project.updated':
      return on(null, event.before, event.meta);
    case 'environment.disconnected':
      return on(null, event.before, event.meta, event.environment);
    case 'flag.created':
      return on(event.flag.name, null, event.flag);
    case 'flag.updated':
      return on(event.name, event.before, event.after);
    case 'flag.archived':
      return on(event.name, { archived: false }, { archived: true, archivedAt: event.at });
    case 'flag.revived':
      return on(event.name, { archived: true }, { archived: false });
    case 'flag.deleted':
      return on(event.name, event.before, null);
    case 'strategy.added':
      return on(event.name, null, event.strategy, event.environment, event.enabled);
    case 'strategy.updated':
      return on(event.name, event.before, event.strategy, event.environment, event.enabled);
    case 'strategy.deleted':
      return on(event.name, event.before, null, event.environment, event.enabled);
    case 'strategies.sorted':
      return on(event.name, event.before, event.order, event.environment);
    case 'flag.enabled':
      return on(event.name, { enabled: false }, { enabled: true, ...(event.added ? { addedStrategy: event.added } : {}), ...(event.activated?.length ? { activatedStrategies: event.activated } : {}) }, event.environment, true);
    case 'flag.disabled':
      return on(event.name, { enabled: true }, { enabled: false }, event.environment, false);
    case 'variants.updated':
      return on(event.name, event.before, event.variants);
    case 'flag.imported':
      return on(event.name, event.before, event.flag);
    case 'flag.tagged':
      return on(event.name, { removedTags: event.removed }, { addedTags: event.added });
    case 'dependency.added':
      return on(event.name, event.before, event.dependency);
    case 'dependencies.removed':
      return on(event.name, event.removed, null);
    case 'flag.stages-entered':
      return on(event.name, null, { stages: event.stages }, event.environment);
    case 'flag.completed':
      return on(event.name, event.before, event.completion);
    case 'flag.uncompleted':
      return on(event.name, event.before, null);
    default: {
      const side = requestSides(event);
      return on(null, side.before, side.after, side.environment);
    }
  }
}

/** The entries of one log record, in the order they happened; a record that applied a change request is one entry. */
export function entriesOf(project: string, record: LogRecord<ProjectCommand, ProjectEvent>): HistoryEntry[] {
  const applied = appliedIn(record.events);
  if (applied) return [appliedEntry(project, record, applied)];
  const commandEnvironment = 'environment' in record.command ? record.command.environment : null;
  return record.events.map((event) => {
    const side = sides(event);
    const entry: HistoryEntry = {
      seq: record.seq, type: event.type, project, feature: side.feature,
      environment: side.environment ?? (event.type === 'project.updated' ? commandEnvironment : null),
      by: record.by, at: record.at, before: side.before, after: side.after, environmentEnabled: side.environmentEnabled,
    };
    const request = requestOf(event);
    if (request) entry.changeRequest = request;
    return entry;
  });
}

/** The one entry of an applied change request: it names the request, and holds every change's sides. */
function appliedEntry(project: string, record: LogRecord<ProjectCommand, ProjectEvent>, applied: Extract<ProjectEvent, { type: 'change-request.applied' }>): HistoryEntry {
  // The changes are its flag events; its own (a note kept as a comment) are told by the entry itself.
  const changes: HistoryChange[] = record.events.filter((event) => !isChangeRequestEvent(event)).map((event) => ({ type: event.type, ...sides(event) }));
  const features = [...new Set(changes.map((c) => c.feature).filter((f): f is string => f !== null))];
  const side = requestSides(applied);
  return {
    seq: record.seq, type: applied.type, project, feature: features.length === 1 ? features[0]! : null, environment: applied.environment,
    by: record.by, at: record.at, before: side.before, after: side.after, environmentEnabled: null,
    changeRequest: { id: applied.id, title: applied.title, changes },
  };
}

/**
 * A page of a project's history, newest first, read from its command log (records trimmed by
 * LOG_RETENTION are gone from it); a damaged record met on the way is a 503 naming its key. Reads back from
 * the end and stops once the page is full, so recent pages are cheap however long the log is.
 *
 * @example await readHistory(store, 'default', { offset: 0, limit: 50 })
 */
export async function readHistory(store: Store, project: string, query: HistoryQuery): Promise<Result<HistoryPage>> {
  try {
    return ok(await readPage(store, project, query));
  } catch (error) {
    if (error instanceof CorruptRecordError) return failed(fail('Unavailable', error.message));
    throw error;
  }
}

/** Where a reverse read for `query` starts: the last record at or before `to`; null when none is. */
async function lastKey(store: Store, project: string, to: string | undefined): Promise<string | undefined | null> {
  if (to === undefined) return undefined;
  const bounds = await logBounds(store, { project });
  const mark = bounds && (await lastAtOrBefore(store, { project }, bounds, to));
  return mark ? keys.log({ project }, mark.seq) : null;
}

/** Whether an entry passes the filters; an applied request's entry passes when one of its changes does. */
const matches = (entry: HistoryEntry, query: HistoryQuery): boolean => {
  const inner = entry.changeRequest?.changes ?? [];
  const feature = query.feature === undefined || entry.feature === query.feature || inner.some((c) => c.feature === query.feature);
  return feature && (query.types === undefined || query.types.has(entry.type) || inner.some((c) => query.types!.has(c.type)));
};

async function readPage(store: Store, project: string, query: HistoryQuery): Promise<HistoryPage> {
  const events: HistoryEntry[] = [];
  let skipped = 0;
  let hasMore = false;
  const lte = await lastKey(store, project, query.to);
  if (lte === null) return { events, offset: query.offset, limit: query.limit, hasMore };
  scan: for await (const [key, value] of store.entries(keys.logPrefix({ project }), { reverse: true, lte })) {
    const record = decode<LogRecord<ProjectCommand, ProjectEvent>>(key, value);
    // Times do not decrease along the log: once before `from`, every older record is too.
    if (query.from !== undefined && record.at < query.from) break;
    if (query.by !== undefined && record.by !== query.by) continue;
    for (const entry of entriesOf(project, record).reverse()) {
      if (!matches(entry, query)) continue;
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
