import { open as openFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Level } from 'level';
import { LogAppends } from './log-appends.js';
import type { BatchOp, CommitOptions, CommitReceipt, EntriesOptions, Store, StoreObservers, StoreOptions, WriteHealth } from './store.js';

/** A put and a delete of one key in one synced batch: it reaches the disk's log and leaves nothing behind. */
const PROBE: BatchOp[] = [{ type: 'put', key: 'probe', value: '' }, { type: 'del', key: 'probe' }];

interface Waiter {
  ops: BatchOp[];
  resolve: (receipt: CommitReceipt) => void;
  reject: (error: unknown) => void;
}

const NO_REVS: CommitReceipt = { revs: null };

/**
 * The data directory is held by another process: LevelDB's lock file `<dir>/LOCK` is taken (one process
 * per data directory). The message names the lock and what to do.
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';

  constructor(readonly directory: string, cause: unknown) {
    super(`the data directory ${directory} is locked by another process (LevelDB lock file ${join(directory, 'LOCK')}): is flagpole already running on it? Stop that process first; one data directory serves one process`, { cause });
  }
}

/**
 * The LevelDB database with group commit: every {@link LevelStore.commit} that arrives while a synced batch is
 * being written joins the next batch, so N concurrent commands cost one fsync instead of N.
 * A resolved `commit` means the ops are on disk.
 *
 * @example
 * const store = await LevelStore.open('./data');
 * await store.commit([{ type: 'put', key: 'a', value: '1' }]);
 */
export class LevelStore implements Store {
  readonly kind = 'leveldb';
  readonly writesTo = 'the disk';
  /** One process owns a data directory: nothing is shared. */
  readonly shared = null;
  private pending: Waiter[] = [];
  private writing = false;
  /** Number of synced batches written, and ops in them; read by the benchmark and tests. */
  readonly stats = { batches: 0, ops: 0 };
  readonly observers: StoreObservers = {};
  /** The last sequence number of each log written to, so an append over a record is refused, not written over it. */
  private readonly appends: LogAppends;
  private failingSince: number | null = null;
  private lastError: string | null = null;
  private writeStartedAt = 0;
  private probe: NodeJS.Timeout | null = null;
  private closing = false;
  /**
   * Set by a failed write: LevelDB may have torn its log file (a record half-written on a full disk), and
   * went on accepting writes after it that its recovery then drops (a write acknowledged after the disk came
   * back was seen gone after a restart). So the next write first closes and reopens the database, which
   * recovers the log up to the tear and starts a new one.
   */
  private reopenNeeded = false;
  private reopening: Promise<void> | null = null;
  /** Writes handed to LevelDB and not answered yet: a reopen waits for them. */
  private inFlight = 0;

  private constructor(private readonly db: Level<string, string>, private readonly directory: string, private readonly options: StoreOptions) {
    this.appends = new LogAppends(async (prefix) => {
      for await (const key of this.keys(prefix, { reverse: true, limit: 1 })) return key;
      return undefined;
    });
  }

  get label(): string {
    return this.directory;
  }

  /** Opens (or creates) the LevelDB database in `directory`; a {@link DataDirLockedError} when another process holds it. */
  static async open(directory: string, options: StoreOptions = {}): Promise<LevelStore> {
    const db = new Level<string, string>(directory, { valueEncoding: 'utf8', keyEncoding: 'utf8' });
    try {
      await db.open();
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED') throw new DataDirLockedError(directory, error);
      throw error;
    }
    return new LevelStore(db, directory, options);
  }

  /** Whether writes are reaching the disk (see {@link WriteHealth}). */
  writeHealth(now = Date.now()): WriteHealth {
    return { failingSince: this.failingSince, lastError: this.lastError, writingForMs: this.writeStartedAt === 0 ? 0 : now - this.writeStartedAt };
  }

  /** Passes `batch` through the test gate (when there is one), then writes it; records the outcome for health. */
  private async write(batch: () => Promise<void>): Promise<void> {
    try {
      if (this.reopenNeeded) await this.reopen();
      const held = this.options.gate?.beforeWrite();
      if (held) await held;
      this.inFlight += 1;
      try {
        await batch();
      } finally {
        this.inFlight -= 1;
      }
    } catch (error) {
      this.failed(error);
      throw error;
    }
    if (this.failingSince !== null) this.recovered();
  }

  /**
   * Closes and reopens LevelDB after a failed write (see {@link reopenNeeded}); concurrent callers share one.
   * First a plain file of 256 KiB is written and synced beside it: while the disk refuses that, the database
   * stays open (reads go on) and the write fails without touching it, since reopening needs room too.
   */
  private reopen(): Promise<void> {
    this.reopening ??= (async () => {
      try {
        const probe = join(this.directory, 'flagpole-write-probe');
        try {
          const file = await openFile(probe, 'w');
          try {
            await file.write(Buffer.alloc(256 * 1024));
            await file.sync();
          } finally {
            await file.close();
          }
        } finally {
          await rm(probe, { force: true });
        }
        while (this.inFlight > 0) await new Promise<void>((r) => setTimeout(r, 1));
        await this.db.close();
        await this.db.open();
        this.reopenNeeded = false;
      } finally {
        this.reopening = null;
      }
    })();
    return this.reopening;
  }

  private failed(error: unknown): void {
    this.reopenNeeded = true;
    this.lastError = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
    if (this.failingSince !== null) return;
    this.failingSince = Date.now();
    // An empty synced batch now and then tells when the disk takes writes again, even if nobody writes.
    this.probe = setInterval(() => {
      if (!this.writing && !this.closing) this.commit(PROBE).catch(() => undefined);
    }, this.options.probeMs ?? 1000);
    this.probe.unref();
  }

  private recovered(): void {
    this.failingSince = null;
    this.lastError = null;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  /** Writes `ops` atomically and durably (synced), sharing the batch with concurrent callers; one writer, so no `basis` is refused. */
  commit(ops: BatchOp[], _options?: CommitOptions): Promise<CommitReceipt> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ops, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    // Let commands that arrive in the same tick join the first batch.
    await new Promise<void>((r) => setImmediate(r));
    while (this.pending.length > 0) {
      let group = this.pending;
      this.pending = [];
      try {
        // An append over a record it holds is refused to its caller alone; the rest of the group is written.
        group = await this.appends.refuseConflicts(group);
        if (group.length === 0) continue;
        const ops = group.length === 1 ? group[0]!.ops : group.flatMap((w) => w.ops);
        const started = performance.now();
        this.writeStartedAt = Date.now();
        await this.write(() => this.writeOps(ops, true));
        this.appends.written(ops);
        this.observers.committed?.(performance.now() - started, ops.length);
        this.stats.batches += 1;
        this.stats.ops += ops.length;
        for (const w of group) w.resolve(NO_REVS);
      } catch (error) {
        for (const w of group) w.reject(error);
      } finally {
        this.writeStartedAt = 0;
      }
    }
    this.writing = false;
  }

  /** Writes without waiting for the disk; a later synced batch makes it durable (LevelDB's log is ordered). */
  async writeUnsynced(ops: BatchOp[]): Promise<void> {
    await this.write(() => this.writeOps(ops, false));
    this.appends.written(ops);
  }

  /**
   * Writes `ops` as one atomic batch built a slice at a time, yielding to the event loop between slices, for
   * batches of tens of thousands of ops. Not part of the group commit (see {@link Store.writeUnsynced}).
   */
  async writeInSlices(ops: BatchOp[], options: { sync: boolean; slice?: number }): Promise<void> {
    await this.write(() => this.writeOps(ops, options.sync, options.slice ?? 500));
    this.appends.written(ops);
  }

  /**
   * Builds `ops` into one LevelDB chained batch and writes it (atomically; synced if asked), giving the event
   * loop a turn after every `slice` ops when given. Always the chained form, never `db.batch(ops)`.
   * Hand-kept for speed: docs/performance.md "Chained LevelDB batch".
   */
  private async writeOps(ops: BatchOp[], sync: boolean, slice?: number): Promise<void> {
    const batch = this.db.batch();
    try {
      for (let i = 0; i < ops.length; i += 1) {
        const op = ops[i]!;
        if (op.type === 'put') batch.put(op.key, op.value);
        else batch.del(op.key);
        if (slice !== undefined && (i + 1) % slice === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await batch.write({ sync });
    } catch (error) {
      // Idempotent: a batch that failed to write is closed already.
      await batch.close().catch(() => undefined);
      throw error;
    }
  }

  /** The value stored under `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    return (await this.db.get(key)) ?? undefined;
  }

  /**
   * Entries whose key starts with `prefix`, in key order (or reversed), optionally after `gt` and up to `lte`;
   * `highWaterMarkBytes`: how much the iterator reads ahead per trip to LevelDB (16 KiB when absent).
   */
  async *entries(prefix: string, options: EntriesOptions = {}): AsyncGenerator<[string, string]> {
    const range = {
      ...(options.highWaterMarkBytes === undefined ? {} : { highWaterMarkBytes: options.highWaterMarkBytes }),
      gt: options.gt !== undefined && options.gt > prefix ? options.gt : prefix,
      ...(options.lte !== undefined && options.lte < `${prefix}\xff` ? { lte: options.lte } : { lt: `${prefix}\xff` }),
      reverse: options.reverse ?? false,
      limit: options.limit ?? -1,
    };
    for await (const entry of this.db.iterator(range)) yield entry;
  }

  /** Keys starting with `prefix`, in key order (or reversed), without reading their values. */
  async *keys(prefix: string, options: { reverse?: boolean; limit?: number } = {}): AsyncGenerator<string> {
    const range = { gt: prefix, lt: `${prefix}\xff`, reverse: options.reverse ?? false, limit: options.limit ?? -1 };
    for await (const key of this.db.keys(range)) yield key;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    while (this.writing) await new Promise<void>((r) => setTimeout(r, 1));
    await this.reopening?.catch(() => undefined);
    await this.db.close();
  }
}
