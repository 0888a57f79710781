import * as v from 'valibot';
import { keys } from '../../snapshots/keys.js';
import type { SharedLog, Signal } from '../../snapshots/shared-log.js';
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
/** The topic of the signal that names sessions ended (their hashes, space-separated) to every node. */
const ENDED = 'sessions-ended';
/** Hashes per signal: 64 hex digits and a space each, well within a signal's bytes. */
const HASHES_PER_SIGNAL = 100;

/**
 * The console's sessions: in memory for lookups, in the store under `ses/` so they survive a restart, outside
 * every command log (a sign-in is not a change of the service's state). A new session and a sign-out are
 * written synced before the answer; a session's last use at most once a minute, unsynced (a crash may give a
 * session back up to a minute of idle time). Expired sessions are dropped on lookup and swept every 10 minutes.
 *
 * On a store several nodes share (docs/architecture.md "Several nodes") memory is a cache of the store: a
 * session this node does not hold is read from the store ({@link lookup}), an ending is signalled to every
 * node (`SharedLog.signal`), which drop it at once, a last use never writes back a session another node
 * ended (`replaceExisting`), and after the listening connection was away the cache is checked against the store.
 */
export class SessionStore {
  readonly #sessions = new Map<string, SessionRecord>();
  /** When each session's last use was last written. */
  readonly #written = new Map<string, number>();
  /** On a shared store: reads of sessions this node does not hold, marked `ended` when an end is signalled meanwhile. */
  readonly #reading = new Map<string, { ended: boolean; read: Promise<SessionRecord | null> }>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #shared: SharedLog | null;
  readonly #unsubscribe: () => void;

  private constructor(private readonly store: Store, private readonly lifetimes: SessionLifetimes, private readonly log: Logger, private readonly sweepsStore: () => boolean) {
    this.#timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.#timer.unref();
    this.#shared = store.shared;
    // Before anything is loaded: an end signalled while this node loads is heard.
    this.#unsubscribe = this.#shared?.onSignal((signal) => this.heard(signal)) ?? (() => undefined);
  }

  /**
   * Loads the stored sessions (dropping expired and unreadable ones). On a store several nodes share, the
   * expired sessions of every node are deleted from the store by one node, the one `sweepsStore` says is it now
   * (the holder of the snapshot lease); the others only forget theirs.
   */
  static async open(store: Store, lifetimes: SessionLifetimes, log: Logger, sweepsStore: () => boolean = () => true): Promise<SessionStore> {
    const sessions = new SessionStore(store, lifetimes, log, sweepsStore);
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
   * The live session under `hash` that this node holds, its last use moved to `now`; undefined when it holds
   * none or it has expired (an expired one is deleted; on a shared store only forgotten here, since another
   * node may have used it since: {@link lookup} asks the store).
   */
  use(hash: string, now = Date.now()): SessionRecord | undefined {
    const record = this.#sessions.get(hash);
    if (!record) return undefined;
    if (this.expired(record, now)) {
      if (this.#shared) this.forget([hash]);
      else void this.end(hash).catch((error: unknown) => this.log.warn({ err: error }, 'deleting an expired session failed; the next sweep tries again'));
      return undefined;
    }
    record.lastUsedAt = now;
    if (now - (this.#written.get(hash) ?? 0) >= Math.min(TOUCH_WRITE_MS, this.lifetimes.idleMs / 4)) {
      this.#written.set(hash, now);
      const value = JSON.stringify(record);
      const write = this.#shared ? this.#shared.replaceExisting(keys.session(hash), value) : this.store.writeUnsynced([{ type: 'put', key: keys.session(hash), value }]);
      void write.catch((error: unknown) => this.log.warn({ err: error }, 'writing a session\'s last use failed; it is kept in memory'));
    }
    return record;
  }

  /**
   * {@link use}, and on a store several nodes share, a session made or last used on another node read from
   * the store when this node holds none (synchronous whenever memory answers).
   *
   * @example const record = await sessions.lookup(sessionKey(hasher, id));
   */
  lookup(hash: string, now = Date.now()): SessionRecord | undefined | Promise<SessionRecord | undefined> {
    const held = this.use(hash, now);
    if (held || !this.#shared) return held;
    return this.readStored(hash).then(async (record) => {
      if (record === null) return undefined;
      if (this.expired(record, now)) {
        await this.end(hash).catch((error: unknown) => this.log.warn({ err: error }, 'deleting an expired session failed; the next sweep tries again'));
        return undefined;
      }
      if (!this.#sessions.has(hash)) {
        this.#sessions.set(hash, record);
        this.#written.set(hash, record.lastUsedAt);
      }
      return this.use(hash, now);
    });
  }

  /** Ends one session (sign-out), durably; on a shared store on every node. */
  async end(hash: string): Promise<void> {
    if (!this.#shared && !this.#sessions.has(hash)) return;
    await this.store.commit([{ type: 'del', key: keys.session(hash) }]);
    this.forget([hash]);
    await this.tell([hash]);
  }

  /**
   * Ends every session matching `ended` (a deleted user's, a changed password's, a revoked token's), durably;
   * on a shared store every node's, as the store holds them (with the latest last use this node knows).
   */
  async endWhere(ended: (record: SessionRecord) => boolean): Promise<number> {
    const hashes = this.#shared ? await this.storedWhere(ended) : [...this.#sessions].filter(([, record]) => ended(record)).map(([hash]) => hash);
    if (hashes.length === 0) return 0;
    await this.store.commit(hashes.map((hash) => ({ type: 'del' as const, key: keys.session(hash) })));
    this.forget(hashes);
    await this.tell(hashes);
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

  /** Stops the sweep timer and the signals (the store is closed by its owner). */
  close(): void {
    clearInterval(this.#timer);
    this.#unsubscribe();
  }

  private expired(record: SessionRecord, now: number): boolean {
    return now - record.lastUsedAt >= this.lifetimes.idleMs || now - record.createdAt >= this.lifetimes.maxMs;
  }

  private async sweep(now = Date.now()): Promise<void> {
    // Every node's sweep would read every stored session and delete the same ones: one node does it for all.
    if (this.#shared && !this.sweepsStore()) {
      this.forget([...this.#sessions].filter(([, record]) => this.expired(record, now)).map(([hash]) => hash));
      return;
    }
    try {
      await this.endWhere((record) => this.expired(record, now));
    } catch (error) {
      this.log.warn({ err: error }, 'sweeping expired sessions failed; the next sweep tries again');
    }
  }

  private forget(hashes: Iterable<string>): void {
    for (const hash of hashes) {
      this.#sessions.delete(hash);
      this.#written.delete(hash);
    }
  }

  /** Shared store: the stored session under `hash` (null when none), one read per hash at a time, read again when an end was signalled meanwhile. */
  private readStored(hash: string): Promise<SessionRecord | null> {
    const running = this.#reading.get(hash);
    if (running) return running.read;
    const reading = { ended: false, read: Promise.resolve<SessionRecord | null>(null) };
    reading.read = (async () => {
      try {
        for (;;) {
          reading.ended = false;
          const value = await this.store.get(keys.session(hash));
          // Its delete is committed before the signal is sent: a read after it cannot find it.
          if (!reading.ended) return value === undefined ? null : readRecord(value);
        }
      } finally {
        this.#reading.delete(hash);
      }
    })();
    this.#reading.set(hash, reading);
    return reading.read;
  }

  /** Shared store: the hashes of stored sessions matching `ended`; held ones the store no longer has are forgotten. */
  private async storedWhere(ended: (record: SessionRecord) => boolean): Promise<string[]> {
    const hashes: string[] = [];
    const stored = new Set<string>();
    for await (const [key, value] of this.store.entries(keys.sessionPrefix)) {
      const hash = key.slice(keys.sessionPrefix.length);
      stored.add(hash);
      const record = readRecord(value);
      if (!record) continue;
      const held = this.#sessions.get(hash);
      if (ended(held && held.lastUsedAt > record.lastUsedAt ? { ...record, lastUsedAt: held.lastUsedAt } : record)) hashes.push(hash);
    }
    this.forget([...this.#sessions.keys()].filter((hash) => !stored.has(hash)));
    return hashes;
  }

  /** Shared store: tells every node that `hashes` ended. */
  private async tell(hashes: string[]): Promise<void> {
    if (!this.#shared) return;
    for (let i = 0; i < hashes.length; i += HASHES_PER_SIGNAL) await this.#shared.signal(ENDED, hashes.slice(i, i + HASHES_PER_SIGNAL).join(' '));
  }

  /** A signal: sessions another node ended are dropped; after the connection was away, every held one is checked against the store. */
  private heard(signal: Signal | null): void {
    if (signal !== null && signal.topic !== ENDED) return;
    const hashes = signal === null ? [...this.#reading.keys()] : signal.message.split(' ');
    for (const hash of hashes) {
      const reading = this.#reading.get(hash);
      if (reading) reading.ended = true;
    }
    if (signal !== null) {
      this.forget(hashes);
      return;
    }
    void this.storedWhere(() => false).catch((error: unknown) => {
      this.log.warn({ err: error }, 'checking the sessions held against the store failed; every one is read again');
      this.forget([...this.#sessions.keys()]);
    });
  }
}
