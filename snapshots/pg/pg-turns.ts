import type pg from 'pg';
import type { HeldTurn } from '../shared-log.js';
import { closeSession, openSession, type Session } from './pg-connection.js';
import { unavailable } from './pg-errors.js';
import type { DatabaseOptions } from './pg-options.js';
import type { Tables } from './pg-schema.js';

/** Connections a process holds at most for turns; more scopes wanting one at once wait for one to be free. */
export const TURN_CONNECTIONS = 4;

interface Waiting {
  resolve: (session: Session) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns at appending to a scope's log (`SharedLog.turn`): a session-level advisory lock per scope, taken over
 * one of a few connections of this process ({@link TURN_CONNECTIONS}), which stays with the turn until it is
 * released. Unlike `PgLocks` (one connection per name, for a handful of names), any number of scopes share
 * them: a turn lasts one catch-up, one decision and one commit.
 *
 * @example const turn = await turns.take(lockKey('turn:p/default', schema)); try { ... } finally { await turn.release(); }
 */
export class PgTurns {
  private readonly idle: Session[] = [];
  private readonly waiting: Waiting[] = [];
  private readonly sessions = new Set<Session>();
  /** Connections being opened, counted against the bound. */
  private opening = 0;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig, private readonly tables: Pick<Tables, 'counter'>, private readonly options: Pick<DatabaseOptions, 'url'>, private readonly max = TURN_CONNECTIONS) {}

  /**
   * Waits for the turn of advisory key `key` across every node (a node that dies lets go of its turns), and
   * reads the head once it is granted, in the same round trip.
   */
  async take(key: [number, number]): Promise<HeldTurn> {
    let session: Session;
    try {
      session = await this.acquire();
    } catch (error) {
      throw unavailable(error, this.options, 'take a turn at a log');
    }
    let head: number;
    try {
      // Two statements in one simple query: the second's snapshot is taken once the lock is granted (read committed).
      const results = await session.client.query(`SELECT pg_advisory_lock(${key[0] | 0}, ${key[1] | 0}); SELECT rev::text AS rev FROM ${this.tables.counter} WHERE id = 1`) as unknown as pg.QueryResult<{ rev: string }>[];
      head = Number(results[1]?.rows[0]?.rev ?? 0);
    } catch (error) {
      this.discard(session);
      throw unavailable(error, this.options, 'take a turn at a log');
    }
    let released = false;
    return {
      head,
      release: async () => {
        if (released) return;
        released = true;
        try {
          await session.client.query('SELECT pg_advisory_unlock($1, $2)', key);
          this.give(session);
        } catch {
          // Not given back over a connection in doubt: closing it does.
          this.discard(session);
        }
      },
    };
  }

  /** Closes every turn connection (the process is stopping): their locks go with them. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the store is closed'));
    await Promise.all([...this.sessions].map((session) => closeSession(session)));
    this.sessions.clear();
    this.idle.length = 0;
  }

  private acquire(): Promise<Session> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    for (let session = this.idle.pop(); session; session = this.idle.pop()) {
      if (!session.broken) return Promise.resolve(session);
      this.forget(session);
    }
    if (this.sessions.size + this.opening < this.max) return this.open();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private async open(): Promise<Session> {
    // Counted while it opens, so no more than `max` are ever open.
    this.opening += 1;
    let session: Session;
    try {
      session = await openSession(this.config);
    } catch (error) {
      this.opening -= 1;
      this.handOn();
      throw error;
    }
    this.opening -= 1;
    if (this.closed) {
      await closeSession(session);
      throw new Error('the store is closed');
    }
    this.sessions.add(session);
    return session;
  }

  private give(session: Session): void {
    if (session.broken || this.closed) return this.discard(session);
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(session);
    else this.idle.push(session);
  }

  private discard(session: Session): void {
    void closeSession(session);
    this.forget(session);
    this.handOn();
  }

  private forget(session: Session): void {
    this.sessions.delete(session);
  }

  /** A connection slot came free: the next waiter opens one. */
  private handOn(): void {
    const waiter = this.waiting.shift();
    if (waiter) this.acquire().then(waiter.resolve, waiter.reject);
  }
}
