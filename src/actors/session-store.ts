import * as v from 'valibot';
import { keys } from '../../snapshots/keys.js';
import type { Store } from '../../snapshots/store.js';
import type { Logger } from '../log.js';

const Millis = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/**
 * A stored session, as it is read back: who a console session signed in as, and when; stored under the keyed
 * hash of its id, never the id. A value that does not hold to it is dropped at start, as an unreadable one is.
 */
export const SessionRecordSchema = v.object({
  /** A password sign-in: the user. */
  userId: v.nullable(v.pipe(v.number(), v.safeInteger())),
  /** A token sign-in: the stored token's hash (its key in the service state), so a revoked token ends it. */
  tokenHash: v.nullable(v.string()),
  /** A password sign-in: the stamp of the password it used (`passwordStamp`); another password ends it. */
  passwordStamp: v.nullable(v.string()),
  createdAt: Millis,
  lastUsedAt: Millis,
});

/** Who a console session signed in as, and when (see {@link SessionRecordSchema}). */
export type SessionRecord = v.InferOutput<typeof SessionRecordSchema>;

/** The session stored as `value`, or null when it is not JSON or not a session record. */
function readRecord(value: string): SessionRecord | null {
  try {
    const parsed = v.safeParse(SessionRecordSchema, JSON.parse(value));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** How long sessions live: since their last use, and at most since their start. */
export interface SessionLifetimes {
  idleMs: number;
  maxMs: number;
}

/** The most often a session's last use is written: the idle clock needs no write per request. */
const TOUCH_WRITE_MS = 60_000;
const SWEEP_MS = 10 * 60_000;

/**
 * The console's sessions: in memory for lookups, in the store under `ses/` so they survive a restart, outside
 * every command log (a sign-in is not a change of the service's state). A new session and a sign-out are
 * written synced before the answer; a session's last use at most once a minute, unsynced (a crash may give a
 * session back up to a minute of idle time). Expired sessions are dropped on lookup and swept every 10 minutes.
 */
export class SessionStore {
  readonly #sessions = new Map<string, SessionRecord>();
  /** When each session's last use was last written. */
  readonly #written = new Map<string, number>();
  readonly #timer: ReturnType<typeof setInterval>;

  private constructor(private readonly store: Store, private readonly lifetimes: SessionLifetimes, private readonly log: Logger) {
    this.#timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.#timer.unref();
  }

  /** Loads the stored sessions (dropping expired and unreadable ones). */
  static async open(store: Store, lifetimes: SessionLifetimes, log: Logger): Promise<SessionStore> {
    const sessions = new SessionStore(store, lifetimes, log);
    const unreadable: string[] = [];
    for await (const [key, value] of store.entries(keys.sessionPrefix)) {
      const record = readRecord(value);
      if (record === null) {
        unreadable.push(key);
        continue;
      }
      sessions.#sessions.set(key.slice(keys.sessionPrefix.length), record);
      sessions.#written.set(key.slice(keys.sessionPrefix.length), record.lastUsedAt);
    }
    if (unreadable.length > 0) {
      log.warn({ sessions: unreadable.length }, 'dropped stored sessions that are not session records');
      await store.commit(unreadable.map((key) => ({ type: 'del' as const, key })));
    }
    await sessions.sweep();
    return sessions;
  }

  /** Stores a new session under `hash`, durably, before it is handed to the browser. */
  async create(hash: string, record: SessionRecord): Promise<void> {
    await this.store.commit([{ type: 'put', key: keys.session(hash), value: JSON.stringify(record) }]);
    this.#sessions.set(hash, record);
    this.#written.set(hash, record.lastUsedAt);
  }

  /**
   * The live session under `hash`, its last use moved to `now`; undefined when there is none or it has
   * expired (an expired one is deleted).
   */
  use(hash: string, now = Date.now()): SessionRecord | undefined {
    const record = this.#sessions.get(hash);
    if (!record) return undefined;
    if (this.expired(record, now)) {
      void this.end(hash).catch((error: unknown) => this.log.warn({ err: error }, 'deleting an expired session failed; the next sweep tries again'));
      return undefined;
    }
    record.lastUsedAt = now;
    if (now - (this.#written.get(hash) ?? 0) >= Math.min(TOUCH_WRITE_MS, this.lifetimes.idleMs / 4)) {
      this.#written.set(hash, now);
      void this.store.writeUnsynced([{ type: 'put', key: keys.session(hash), value: JSON.stringify(record) }])
        .catch((error: unknown) => this.log.warn({ err: error }, 'writing a session\'s last use failed; it is kept in memory'));
    }
    return record;
  }

  /** Ends one session (sign-out), durably. */
  async end(hash: string): Promise<void> {
    if (!this.#sessions.has(hash)) return;
    await this.store.commit([{ type: 'del', key: keys.session(hash) }]);
    this.#sessions.delete(hash);
    this.#written.delete(hash);
  }

  /** Ends every session matching `ended` (a deleted user's, a changed password's, a revoked token's), durably. */
  async endWhere(ended: (record: SessionRecord) => boolean): Promise<number> {
    const hashes = [...this.#sessions].filter(([, record]) => ended(record)).map(([hash]) => hash);
    if (hashes.length === 0) return 0;
    await this.store.commit(hashes.map((hash) => ({ type: 'del' as const, key: keys.session(hash) })));
    for (const hash of hashes) {
      this.#sessions.delete(hash);
      this.#written.delete(hash);
    }
    return hashes.length;
  }

  /** The records of the sessions held now (live, or expired and not yet swept), to read. */
  records(): Iterable<Readonly<SessionRecord>> {
    return this.#sessions.values();
  }

  /** Sessions held now (live or expired and not yet swept). */
  get size(): number {
    return this.#sessions.size;
  }

  /** Stops the sweep timer (the store is closed by its owner). */
  close(): void {
    clearInterval(this.#timer);
  }

  private expired(record: SessionRecord, now: number): boolean {
    return now - record.lastUsedAt >= this.lifetimes.idleMs || now - record.createdAt >= this.lifetimes.maxMs;
  }

  private async sweep(now = Date.now()): Promise<void> {
    try {
      await this.endWhere((record) => this.expired(record, now));
    } catch (error) {
      this.log.warn({ err: error }, 'sweeping expired sessions failed; the next sweep tries again');
    }
  }
}
