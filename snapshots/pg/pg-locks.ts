import type pg from 'pg';
import type { HeldLock } from '../shared-log.js';
import { closeSession, openSession, type Session } from './pg-connection.js';

type Mode = 'exclusive' | 'shared';

interface Waiter {
  mode: Mode;
  resolve: (lock: HeldLock) => void;
  reject: (error: unknown) => void;
}

interface NamedLock {
  key: [number, number];
  /** The mode held now (by `holders` of this process), or null. */
  mode: Mode | null;
  holders: number;
  waiters: Waiter[];
  /** Taking or giving back the database's lock is under way. */
  busy: boolean;
  /** The connection that holds the database's advisory lock while this process holds the lock. */
  session: Session | null;
}

/**
 * Locks across nodes: a PostgreSQL session-level advisory lock per name, held by a connection of this
 * process while any of its callers holds the lock; within the process, callers queue in arrival order
 * (shared callers together, an exclusive one alone). A node that dies drops its connection and so its locks.
 *
 * @example const held = await locks.lock('access', [0x666c6167, 42], 'exclusive'); try { ... } finally { await held.release(); }
 */
export class PgLocks {
  private readonly named = new Map<string, NamedLock>();

  constructor(private readonly config: pg.ClientConfig) {}

  /** Waits for lock `name` (advisory key `key`) in `mode`. */
  lock(name: string, key: [number, number], mode: Mode): Promise<HeldLock> {
    let entry = this.named.get(name);
    if (!entry) {
      entry = { key, mode: null, holders: 0, waiters: [], busy: false, session: null };
      this.named.set(name, entry);
    }
    const lock = entry;
    return new Promise((resolve, reject) => {
      lock.waiters.push({ mode, resolve, reject });
      void this.pump(lock);
    });
  }

  /** Lets go of every lock's connection (the process is stopping). */
  async close(): Promise<void> {
    await Promise.all([...this.named.values()].map((lock) => closeSession(lock.session)));
  }

  /** Grants the lock to the waiters at the head of the queue that can hold it now (arrival order). */
  private async pump(lock: NamedLock): Promise<void> {
    const head = lock.waiters[0];
    if (lock.busy || !head) return;
    if (lock.holders > 0) {
      // Shared holders let more shared callers in, unless an exclusive one waits ahead of them.
      if (lock.mode === 'shared' && head.mode === 'shared') this.grantShared(lock);
      return;
    }
    lock.busy = true;
    let failure: { error: unknown } | null = null;
    try {
      await this.take(lock, head.mode);
      lock.mode = head.mode;
    } catch (error) {
      failure = { error };
    } finally {
      lock.busy = false;
    }
    if (failure) {
      lock.waiters.shift()?.reject(failure.error);
      void this.pump(lock);
      return;
    }
    if (head.mode === 'shared') this.grantShared(lock);
    else this.grant(lock, lock.waiters.shift()!);
  }

  private grantShared(lock: NamedLock): void {
    while (lock.waiters[0]?.mode === 'shared') this.grant(lock, lock.waiters.shift()!);
  }

  private grant(lock: NamedLock, waiter: Waiter): void {
    lock.holders += 1;
    let released = false;
    waiter.resolve({
      release: async () => {
        if (released) return;
        released = true;
        lock.holders -= 1;
        if (lock.holders === 0) await this.give(lock);
        void this.pump(lock);
      },
    });
  }

  /** Takes the database's lock in `mode` over the lock's connection (a new one when it broke). */
  private async take(lock: NamedLock, mode: Mode): Promise<void> {
    if (!lock.session || lock.session.broken) {
      await closeSession(lock.session);
      lock.session = await openSession(this.config);
    }
    await lock.session.client.query(`SELECT ${mode === 'shared' ? 'pg_advisory_lock_shared' : 'pg_advisory_lock'}($1, $2)`, lock.key);
  }

  /** Gives the database's lock back; a broken connection gave it back already. */
  private async give(lock: NamedLock): Promise<void> {
    const mode = lock.mode;
    lock.mode = null;
    if (!lock.session || lock.session.broken) return;
    lock.busy = true;
    try {
      await lock.session.client.query(`SELECT ${mode === 'shared' ? 'pg_advisory_unlock_shared' : 'pg_advisory_unlock'}($1, $2)`, lock.key);
    } catch {
      // Not given back over a connection in doubt: closing it does.
      await closeSession(lock.session);
      lock.session = null;
    } finally {
      lock.busy = false;
    }
  }
}
