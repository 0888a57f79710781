import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Contact, Signal } from '../shared-log.js';
import { closeSession, openSession, type Session } from './pg-connection.js';

/** The channels a listener follows: the log's (each commit's last rev) and the signals' (`topic` NL `message`). */
export interface Channels {
  log: string;
  signals: string;
}

/**
 * A connection of its own that LISTENs on the store's channels and passes on every commit's last rev and
 * every signal, plus `null` each time it (re)connects, since notifications sent while it was away are lost. It checks itself
 * every `checkMs` (a `SELECT 1` bounded by the driver's query timeout), so a connection the network dropped
 * is noticed and replaced, and {@link contact} says how long the node has been without the store.
 *
 * @example const listener = new PgListener(config, 'flagpole_log', 1000); listener.listen((rev) => follow(rev));
 */
export class PgListener {
  private session: Session | null = null;
  private readonly listeners = new Set<(rev: number | null) => void>();
  private readonly signalListeners = new Set<(signal: Signal | null) => void>();
  private lastContact = Date.now();
  private lostSince: number | null = Date.now();
  private closed = false;
  /** Ends the wait between two checks at once when closing: a stop never waits out a check interval. */
  private readonly stopping = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(private readonly config: pg.ClientConfig, private readonly channels: Channels, private readonly checkMs: number) {}

  /** Subscribes `listener` to the log's revs (starting the connection on the first); returns the unsubscribe. */
  listen(listener: (rev: number | null) => void): () => void {
    this.listeners.add(listener);
    this.loop ??= this.run();
    return () => this.listeners.delete(listener);
  }

  /** Subscribes `listener` to the signals (starting the connection on the first); returns the unsubscribe. */
  onSignal(listener: (signal: Signal | null) => void): () => void {
    this.signalListeners.add(listener);
    this.loop ??= this.run();
    return () => this.signalListeners.delete(listener);
  }

  /** Notes a successful exchange with the store made elsewhere (a read of the log). */
  heard(now = Date.now()): void {
    this.lastContact = now;
  }

  contact(now = Date.now()): Contact {
    return { lastContact: Math.min(this.lastContact, now), lostSince: this.lostSince };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    await closeSession(this.session);
    await this.loop?.catch(() => undefined);
  }

  private tell(rev: number | null): void {
    for (const listener of [...this.listeners]) listener(rev);
    if (rev === null) this.tellSignal(null);
  }

  private tellSignal(signal: Signal | null): void {
    for (const listener of [...this.signalListeners]) listener(signal);
  }

  private heardFrom(channel: string, payload: string): void {
    if (channel === this.channels.signals) {
      const newline = payload.indexOf('\n');
      if (newline > 0) this.tellSignal({ topic: payload.slice(0, newline), message: payload.slice(newline + 1) });
      return;
    }
    const rev = Number(payload);
    if (Number.isSafeInteger(rev)) this.tell(rev);
  }

  /** Waits `ms`, or less when {@link close} comes first. */
  private pause(ms: number): Promise<void> {
    return sleep(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  /** Connects and listens, checks the connection every `checkMs`, and reconnects when it breaks. */
  private async run(): Promise<void> {
    while (!this.closed) {
      try {
        const session = await openSession(this.config);
        this.session = session;
        session.client.on('notification', (message) => {
          this.lastContact = Date.now();
          this.heardFrom(message.channel, message.payload ?? '');
        });
        for (const channel of [this.channels.log, this.channels.signals]) await session.client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
        this.lastContact = Date.now();
        this.lostSince = null;
        this.tell(null);
        while (!this.closed && !session.broken) {
          await this.pause(this.checkMs);
          if (this.closed || session.broken) break;
          await session.client.query('SELECT 1');
          this.lastContact = Date.now();
        }
      } catch {
        // Unreachable or broken: tried again below.
      }
      await closeSession(this.session);
      this.session = null;
      if (this.closed) return;
      this.lostSince ??= Date.now();
      await this.pause(Math.min(this.checkMs, 500));
    }
  }
}
