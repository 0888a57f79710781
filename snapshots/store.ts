import { join } from 'node:path';
import { Level } from 'level';

/** One write of a batch: a put or a delete of a string key. */
export type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

interface Waiter {
  ops: BatchOp[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The LevelDB database with group commit: every {@link Store.commit} that arrives while a synced batch is
 * being written joins the next batch, so N concurrent commands cost one fsync instead of N.
 * A resolved `commit` means the ops are on disk.
 *
 * @example
 * const store = await Store.open('./data');
 * await store.commit([{ type: 'put', key: 'a', value: '1' }]);
 */
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

export class Store {
  private pending: Waiter[] = [];
  private writing = false;
  /** Number of synced batches written, and ops in them; read by the benchmark and tests. */
  readonly stats = { batches: 0, ops: 0 };

  private constructor(readonly db: Level<string, string>) {}

  static async open(directory: string): Promise<Store> {
    const db = new Level<string, string>(directory, { valueEncoding: 'utf8', keyEncoding: 'utf8' });
    try {
      await db.open();
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED') throw new DataDirLockedError(directory, error);
      throw error;
    }
    return new Store(db);
  }

  /** Writes `ops` atomically and durably (synced), sharing the batch with concurrent callers. */
  commit(ops: BatchOp[]): Promise<void> {
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
      const group = this.pending;
      this.pending = [];
      const ops = group.length === 1 ? group[0]!.ops : group.flatMap((w) => w.ops);
      try {
        await this.db.batch(ops, { sync: true });
        this.stats.batches += 1;
        this.stats.ops += ops.length;
        for (const w of group) w.resolve();
      } catch (error) {
        for (const w of group) w.reject(error);
      }
    }
    this.writing = false;
  }

  /** Writes without waiting for the disk; a later synced batch makes it durable (LevelDB's log is ordered). */
  async writeUnsynced(ops: BatchOp[]): Promise<void> {
    await this.db.batch(ops, { sync: false });
  }

  /**
   * Writes `ops` as one atomic batch built a slice at a time, yielding to the event loop between slices: a
   * batch of tens of thousands of small values costs LevelDB's bindings about 10 µs of the event loop per op
   * when handed over at once. Not part of the group commit (see {@link Store.writeUnsynced}).
   */
  async writeInSlices(ops: BatchOp[], options: { sync: boolean; slice?: number }): Promise<void> {
    const slice = options.slice ?? 500;
    const batch = this.db.batch();
    try {
      for (let i = 0; i < ops.length; i += 1) {
        const op = ops[i]!;
        if (op.type === 'put') batch.put(op.key, op.value);
        else batch.del(op.key);
        if ((i + 1) % slice === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await batch.write({ sync: options.sync });
    } catch (error) {
      // Idempotent: a batch that failed to write is closed already.
      await batch.close().catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.db.get(key)) ?? undefined;
  }

  /** Entries whose key starts with `prefix`, in key order (or reversed), optionally after `gt`. */
  async *entries(prefix: string, options: { reverse?: boolean; gt?: string; limit?: number } = {}): AsyncGenerator<[string, string]> {
    const range = {
      gt: options.gt !== undefined && options.gt > prefix ? options.gt : prefix,
      lt: `${prefix}\xff`,
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
    while (this.writing) await new Promise<void>((r) => setTimeout(r, 1));
    await this.db.close();
  }
}
