import { decode } from '../../../snapshots/codec.js';
import type { LogRecord } from '../../../snapshots/records.js';
import type { Lease, SharedLog, SharedRow } from '../../../snapshots/shared-log.js';
import type { Logger } from '../../log.js';
import { DEFAULT_CONTACT_TIMEOUT_MS } from '../registry-options.js';
import type { CommittedFeed } from '../committed-feed.js';
import { LocalSingletonWork, type SingletonWork } from '../addons/singleton-work.js';
import { LeasedSingletonWork } from './leased-work.js';
import { ClusterQueue } from './cluster-queue.js';
import { LogGapError } from './log-gap-error.js';
import { Sequencer } from './sequencer.js';

/** An actor as the cluster node applies other nodes' records to it. */
export interface ForeignApplied {
  applyForeign(record: LogRecord<never, never>, revision: number, bytes: number): void;
}

/** Where a record another node committed goes: the registry's actors, and how it serves and forgets projects. */
export interface ForeignTargets {
  service(): ForeignApplied;
  /** The served project `id`, recovered from the store first when this node does not serve it yet. */
  project(id: string): Promise<ForeignApplied>;
  /** Recovers `scope` (`svc`, `p/<id>`) from the store again: the shared log skipped some of its records. */
  reload(scope: string): Promise<void>;
  /** After a project's record: stops serving it when it is deleted. */
  settled(id: string): void;
  /** After a service record: projects the service forgot stop being served here too. */
  forgotten(records: LogRecord<never, { type: string; project?: string }>): void;
}

/** The least time between two warnings that reading other nodes' commits failed, ms. */
const READ_WARNING_EVERY_MS = 30_000;

/** How often the store's head is read besides its notifications, ms: a notification lost on a live connection costs at most this. */
const HEAD_POLL_MS = 2000;

/**
 * This node's part in an installation of several nodes on one store (docs/architecture.md "Several nodes"):
 * the {@link Sequencer} that orders every change by the store's revision, the subscription that tells it of
 * other nodes' commits (notifications, plus a read of the head every {@link HEAD_POLL_MS}), the routing of
 * those records to the actors, the cross-node mailboxes and the snapshot lease. On LevelDB (no shared log)
 * it is the sequencer alone.
 *
 * @example const node = new ClusterNode(store.shared, log, targets); node.follow(); await node.sequencer.catchUp();
 */
export class ClusterNode {
  readonly sequencer: Sequencer;
  /** Whose holder writes snapshots, trims logs and sweeps expired sessions from the store; absent on LevelDB (this node always does). */
  readonly snapshotLease: Lease | undefined;
  /** How long without the database makes this node unhealthy and its answers stale (`DATABASE_CONTACT_TIMEOUT_MS`). */
  contactTimeoutMs = DEFAULT_CONTACT_TIMEOUT_MS;
  private unsubscribe: (() => void) | null = null;
  private lastReadWarning = 0;
  private poll: NodeJS.Timeout | null = null;

  constructor(private readonly shared: SharedLog | null, private readonly log: Logger, private readonly targets: ForeignTargets, private readonly feed: CommittedFeed) {
    this.sequencer = new Sequencer({
      shared,
      applyForeign: (row) => this.apply(row),
      // Retried several times a second while the database is away: one warning per 30 s, the rest at debug.
      failed: (error) => {
        const now = Date.now();
        const level = now - this.lastReadWarning >= READ_WARNING_EVERY_MS ? 'warn' : 'debug';
        if (level === 'warn') this.lastReadWarning = now;
        log[level]({ err: error }, 'reading what other nodes committed failed; tried again');
      },
    }, 0);
    this.snapshotLease = shared?.lease('snapshots');
  }

  /** A mailbox `name` that runs one task at a time across every node (`ClusterQueue`). */
  queue(name: string): ClusterQueue {
    return new ClusterQueue(name, this.shared, this.sequencer);
  }

  /**
   * Runs `task` holding lock `name` across nodes in `mode` (an exclusive holder first catches up with what any
   * node committed); on LevelDB it just runs it.
   */
  async withLock<T>(name: string, mode: 'exclusive' | 'shared', task: () => Promise<T>): Promise<T> {
    const shared = this.shared;
    if (!shared) return task();
    const held = await shared.lock(name, mode);
    try {
      if (mode === 'exclusive') await this.sequencer.catchUp();
      return await task();
    } finally {
      await held.release();
    }
  }

  /** Starts following other nodes' commits (nothing on LevelDB). */
  follow(): void {
    const shared = this.shared;
    if (!shared || this.unsubscribe) return;
    const catchUp = () => void this.sequencer.catchUp().catch(() => undefined);
    this.unsubscribe = shared.listen((rev) => (rev === null ? catchUp() : this.sequencer.notified(rev)));
    this.poll = setInterval(catchUp, HEAD_POLL_MS);
    this.poll.unref();
  }

  /** Stops following (the store closes the connections). */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }

  /**
   * Resolves true once this node has applied `revision` (a client showed it: it read a node further along),
   * reading what is new at once, or false after `waitMs` if it has not by then. Immediate on LevelDB.
   */
  reached(revision: number, waitMs: number): Promise<boolean> {
    if (this.feed.revision >= revision || !this.shared) return Promise.resolve(this.feed.revision >= revision);
    void this.sequencer.catchUp().catch(() => undefined);
    return this.feed.reached(revision, waitMs);
  }

  /**
   * On a store several nodes share: resolves once this node has applied what any node committed before the
   * call, or after `waitMs`, or at once when the node has lost the database (then it answers from memory).
   * Never rejects; immediate on LevelDB.
   */
  async freshen(waitMs: number): Promise<void> {
    if (!this.shared || this.shared.contact().lostSince !== null) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.sequencer.catchUp().catch(() => undefined),
      new Promise<void>((resolve) => { timer = setTimeout(resolve, waitMs); }),
    ]);
    clearTimeout(timer);
  }

  /**
   * What every answer says while this node is cut off from the database past {@link contactTimeoutMs} (its
   * state may be older than other nodes'): a `Warning` header's value; null while in contact, and on LevelDB.
   */
  staleness(now = Date.now()): string | null {
    const silentMs = this.shared ? now - this.shared.contact(now).lastContact : 0;
    if (silentMs <= this.contactTimeoutMs) return null;
    return `110 flagpole "Response is Stale: no contact with the database for ${Math.round(silentMs / 1000)} s, other nodes may hold newer changes"`;
  }

  /**
   * Where work only one node does runs (addon deliveries, scheduled changes): here, on one process; on a store
   * several nodes share, on the node holding the work's lease, taken over when that node dies.
   */
  singletonWork(): SingletonWork {
    return this.shared ? new LeasedSingletonWork(this.shared, this.log) : new LocalSingletonWork();
  }

  /** Test seam: this node stops following other nodes' commits (notifications, head reads) until the returned function is called; it catches up only when asked (a write, a fresh read). */
  deafen(): () => void {
    this.stop();
    return () => this.follow();
  }

  /** Applies one record another node committed to its scope's actor, in order. */
  private async apply(row: SharedRow): Promise<void> {
    const record = decode<LogRecord<never, never>>(`${row.scope}/log/${row.seq}`, row.record);
    const project = row.scope === 'svc' ? null : row.scope.slice('p/'.length);
    const actor = project === null ? this.targets.service() : await this.targets.project(project);
    try {
      actor.applyForeign(record, row.rev, row.record.length);
    } catch (error) {
      if (!(error instanceof LogGapError)) throw error;
      this.log.warn({ scope: row.scope, held: error.held, found: error.found }, error.message);
      await this.targets.reload(row.scope);
      (project === null ? this.targets.service() : await this.targets.project(project)).applyForeign(record, row.rev, row.record.length);
    }
    if (project === null) this.targets.forgotten(record as LogRecord<never, { type: string; project?: string }>);
    else this.targets.settled(project);
  }
}
