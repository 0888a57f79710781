import pg from 'pg';
import type { Tables } from './pg-schema.js';
import { DatabaseInUseError } from './pg-errors.js';

export { DatabaseInUseError } from './pg-errors.js';

/** A connection of its own (not the pool's), with who it is on the server: its backend's pid and start. */
export interface Session {
  client: pg.Client;
  pid: number;
  /** `backend_start` as text: with the pid, names the backend even after a restart reused the pid. */
  started: string;
  /** Whether the connection broke or was closed (an idle connection's error arrives as an event). */
  broken: boolean;
}

/**
 * Opens a connection of its own and learns its backend; a connection error later only marks it broken (the
 * driver emits an idle connection's failure as an event, which unheard would end the process).
 */
export async function openSession(config: pg.ClientConfig): Promise<Session> {
  const client = new pg.Client(config);
  const session: Session = { client, pid: 0, started: '', broken: false };
  client.on('error', () => { session.broken = true; });
  client.on('end', () => { session.broken = true; });
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number; started: string }>(
      'SELECT pid, backend_start::text AS started FROM pg_stat_activity WHERE pid = pg_backend_pid()');
    session.pid = rows[0]!.pid;
    session.started = rows[0]!.started;
    return session;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** Closes `session`, quietly (it may be broken already). */
export async function closeSession(session: Session | null): Promise<void> {
  if (!session) return;
  session.broken = true;
  await session.client.end().catch(() => undefined);
}

/**
 * The node lock: a session-level advisory lock of the schema, held by a connection of its own for as long as
 * the store is open. Every node holds it shared (several nodes serve one database together); an offline tool
 * holds it alone, so a tool never works on a database nodes are serving, and no node starts while a tool
 * works. A database restart ends the session and frees the lock: {@link take} again before writing.
 */
export class NodeLock {
  private session: Session | null = null;

  constructor(private readonly config: pg.ClientConfig, private readonly tables: Tables, private readonly label: string, private readonly mode: 'exclusive' | 'shared') {}

  /** Whether the lock is held by a live connection. */
  get held(): boolean {
    return this.session !== null && !this.session.broken;
  }

  /**
   * Takes the lock (nothing when held); a {@link DatabaseInUseError} when it is held the other way after
   * `waitMs` (a process killed a moment ago holds it until the database notices its connection is gone).
   */
  async take(waitMs = 0): Promise<void> {
    if (this.held) return;
    await closeSession(this.session);
    this.session = null;
    const session = await openSession(this.config);
    const [classId, objId] = this.tables.locks.node;
    const deadline = Date.now() + waitMs;
    const tryLock = this.mode === 'shared' ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
    for (;;) {
      const { rows } = await session.client.query<{ taken: boolean }>(`SELECT ${tryLock}($1, $2) AS taken`, [classId, objId]);
      if (rows[0]!.taken) break;
      if (Date.now() >= deadline) {
        await closeSession(session);
        throw new DatabaseInUseError(this.label, this.mode);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.session = session;
  }

  async release(): Promise<void> {
    await closeSession(this.session);
    this.session = null;
  }
}
