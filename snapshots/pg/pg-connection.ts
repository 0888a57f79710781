import pg from 'pg';

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
