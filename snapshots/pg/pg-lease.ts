import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Lease } from '../shared-log.js';
import { closeSession, openSession, type Session } from './pg-connection.js';

/**
 * A lease as a PostgreSQL session-level advisory lock, tried every `retryMs` by a connection of its own until
 * it is taken, then held for as long as that connection lives (checked every `retryMs` with a `SELECT 1`). A
 * node that dies or loses the database drops the connection, and the lease goes to the next node that tries.
 * Work under a lease must be safe to repeat: a holder cut off from the database learns it only at its next
 * check, while another node may already hold the lease.
 *
 * @example const lease = new PgLease(config, [0x666c6167, 7], 1000); lease.onChange((held) => held ? start() : stop());
 */
export class PgLease implements Lease {
  private session: Session | null = null;
  private holding = false;
  private closed = false;
  /** Ends the wait between two checks at once when closing: a stop never waits out a check interval. */
  private readonly stopping = new AbortController();
  private readonly listeners = new Set<(held: boolean) => void>();
  private readonly loop: Promise<void>;

  constructor(private readonly config: pg.ClientConfig, private readonly key: [number, number], private readonly retryMs: number) {
    this.loop = this.run();
  }

  get held(): boolean {
    return this.holding;
  }

  onChange(listener: (held: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    this.set(false);
    await closeSession(this.session);
    await this.loop.catch(() => undefined);
  }

  private set(held: boolean): void {
    if (this.holding === held) return;
    this.holding = held;
    for (const listener of [...this.listeners]) listener(held);
  }

  /** Waits `ms`, or less when {@link close} comes first. */
  private pause(ms: number): Promise<void> {
    return sleep(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      try {
        if (!this.session || this.session.broken) {
          this.set(false);
          await closeSession(this.session);
          this.session = await openSession(this.config);
        }
        if (this.holding) {
          await this.session.client.query('SELECT 1');
        } else {
          const { rows } = await this.session.client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS taken', this.key);
          if (rows[0]?.taken && !this.closed) this.set(true);
        }
      } catch {
        this.set(false);
        await closeSession(this.session);
        this.session = null;
      }
      await this.pause(this.retryMs);
    }
  }
}
