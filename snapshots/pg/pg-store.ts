import pg from 'pg';
import { LogConflictError, StoreUnavailableError, type BatchOp, type CommitOptions, type CommitReceipt, type EntriesOptions, type Store, type StoreObservers, type StoreOptions, type WriteHealth } from '../store.js';
import { HealthTracker } from '../write-health.js';
import { PgCommits } from './pg-commits.js';
import { DatabaseInUseError, NodeLock } from './pg-connection.js';
import { healthLine, unavailable, writeFailure } from './pg-errors.js';
import { clientConfigOf, databaseLabel, type DatabaseOptions } from './pg-options.js';
import { PgReads } from './pg-reads.js';
import { SchemaTooNewError, migrate, tablesOf, type Tables } from './pg-schema.js';
import { PgSharedLog } from './pg-shared-log.js';
import type { SharedLog } from '../shared-log.js';
import { writeArrays, writeStatement, writeValues } from './pg-sql.js';

/**
 * The store in a PostgreSQL database (docs/storage.md "PostgreSQL"): log records in the log table, every
 * other key in the key-value table, commits grouped (`PgCommits`). Opening migrates the schema and takes the
 * node lock (shared by the nodes serving it together: `shared`); a database that goes away makes writes fail (health says so, a probe clears it once it is back)
 * while reads of memory go on above this store.
 *
 * @example const store = await PgStore.open({ url, schema: 'public', poolSize: 10, statementTimeoutMs: 30_000 });
 */
export class PgStore implements Store {
  readonly kind = 'postgres';
  readonly writesTo = 'the database';
  readonly stats = { batches: 0, ops: 0 };
  readonly observers: StoreObservers = {};
  readonly label: string;
  /** The global log, its channel, locks and leases: what several nodes on this database share. */
  readonly shared: SharedLog;
  private readonly health: HealthTracker;
  private readonly commits: PgCommits;
  private readonly reads: PgReads;

  private constructor(
    private readonly pool: pg.Pool,
    /** flagpole's tables and channel in the database (the next nodes' feed listens on `tables.channel`). */
    readonly tables: Tables,
    private readonly lock: NodeLock,
    private readonly options: DatabaseOptions,
    private readonly storeOptions: StoreOptions,
  ) {
    this.label = databaseLabel(options);
    this.health = new HealthTracker(() => this.probe(), storeOptions.probeMs ?? 1000);
    this.reads = new PgReads(pool, tables);
    this.shared = new PgSharedLog(pool, clientConfigOf(options), tables, options);
    this.commits = new PgCommits({
      tables, config: clientConfigOf(options), pool, options, health: this.health, observers: this.observers, stats: this.stats,
      ready: () => this.lock.take(), gate: storeOptions.gate, retryMs: Math.min(storeOptions.probeMs ?? 1000, 250),
    });
  }

  /**
   * Connects, creates or upgrades the schema (`migrate`; nodes starting together migrate once) and takes the
   * node lock, shared by every node or alone for an offline tool (`alone`): a {@link DatabaseInUseError}
   * when another process holds it, a {@link SchemaTooNewError} for a schema of newer code, a
   * `StoreUnavailableError` (scrubbed of credentials) when the database cannot be reached.
   */
  static async open(options: DatabaseOptions, storeOptions: StoreOptions = {}): Promise<PgStore> {
    const config = clientConfigOf(options);
    const tables = tablesOf(options.schema);
    const pool = new pg.Pool({ ...config, max: options.poolSize });
    // An idle connection that breaks is dropped by the pool; unheard, its error would end the process.
    pool.on('error', () => undefined);
    // So does a checked-out one between two queries (a transaction's reads, a partition): its next query fails instead.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const lock = new NodeLock(config, tables, databaseLabel(options), storeOptions.alone ? 'exclusive' : 'shared');
    try {
      const client = await pool.connect();
      try {
        // Keys and records are UTF-8 text, compared byte by byte: another encoding would refuse or reorder them.
        const encoding = (await client.query<{ server_encoding: string }>('SHOW server_encoding')).rows[0]?.server_encoding;
        if (encoding !== 'UTF8') {
          throw new StoreUnavailableError(`PostgreSQL: the database ${databaseLabel(options)} is encoded ${encoding}; flagpole needs UTF8 (CREATE DATABASE ... ENCODING 'UTF8' TEMPLATE template0)`);
        }
        if (storeOptions.create === false && !(await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [tables.version])).rows[0]?.found) {
          throw new StoreUnavailableError(`PostgreSQL: ${databaseLabel(options)} holds no flagpole data (no table ${tables.version})`);
        }
        await migrate(client, tables);
      } finally {
        client.release();
      }
      // A process killed a moment ago (a restart after a crash) holds the lock until the database notices.
      await lock.take(storeOptions.lockWaitMs ?? 5_000);
      return new PgStore(pool, tables, lock, options, storeOptions);
    } catch (error) {
      await lock.release();
      await pool.end().catch(() => undefined);
      if (error instanceof SchemaTooNewError || error instanceof DatabaseInUseError) throw error;
      throw unavailable(error, options, 'cannot open the database');
    }
  }

  writeHealth(now = Date.now()): WriteHealth {
    return this.health.report(now);
  }

  commit(ops: BatchOp[], options?: CommitOptions): Promise<CommitReceipt> {
    return this.commits.commit(ops, options);
  }

  /** One statement of its own whose commit does not wait for the WAL flush (`synchronous_commit` off). */
  async writeUnsynced(ops: BatchOp[]): Promise<void> {
    await this.writeOnce(ops, true);
  }

  /**
   * One transaction over a pooled connection: a statement per `slice` ops, then COMMIT (synced, or with
   * `synchronous_commit` off). A connection lost at COMMIT leaves the outcome open: it rejects all the same
   * (its callers, deletions that a later start finishes, do not depend on it).
   */
  async writeInSlices(ops: BatchOp[], options: { sync: boolean; slice?: number }): Promise<void> {
    const slice = options.slice ?? 500;
    await this.guarded(async () => {
      const client = await this.pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        if (!options.sync) await client.query('SET LOCAL synchronous_commit = off');
        for (let i = 0; i < ops.length; i += slice) {
          await client.query({ ...writeStatement(this.tables, false), values: writeValues(writeArrays(ops.slice(i, i + slice))) });
        }
        await client.query('COMMIT');
      } catch (error) {
        broken = error;
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release(broken instanceof Error && writeFailure(broken, this.tables.logPrimaryKey) === 'unknown' ? broken : undefined);
      }
    });
  }

  get(key: string): Promise<string | undefined> {
    return this.read(() => this.reads.get(key));
  }

  async *entries(prefix: string, options: EntriesOptions = {}): AsyncGenerator<[string, string]> {
    yield* this.readAll(this.reads.range(prefix, options, true));
  }

  async *keys(prefix: string, options: { reverse?: boolean; limit?: number } = {}): AsyncGenerator<string> {
    for await (const [key] of this.readAll(this.reads.range(prefix, options, false))) yield key;
  }

  async close(): Promise<void> {
    await this.commits.close();
    this.health.stop();
    await this.shared.close();
    await this.lock.release();
    await this.pool.end().catch(() => undefined);
  }

  private async writeOnce(ops: BatchOp[], unsynced: boolean): Promise<void> {
    await this.guarded(() => this.pool.query({ ...writeStatement(this.tables, unsynced), values: writeValues(writeArrays(ops)) }));
  }

  /** Runs a write outside the group commit: gate, node lock, and health as the group commit has them. */
  private async guarded(write: () => Promise<unknown>): Promise<void> {
    try {
      const held = this.storeOptions.gate?.beforeWrite();
      if (held) await held;
      await this.lock.take();
      await write();
    } catch (error) {
      this.health.failed(healthLine(error));
      if (writeFailure(error, this.tables.logPrimaryKey) === 'conflict') throw new LogConflictError('(a write outside the group commit)', 0);
      throw unavailable(error, this.options, 'write');
    }
    this.health.succeeded();
  }

  /** While writes fail: an empty write (it needs the node lock and a database that takes writes). */
  private async probe(): Promise<void> {
    await this.lock.take();
    await this.pool.query({ ...writeStatement(this.tables, true), values: writeValues(writeArrays([])) });
  }

  private async read<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw unavailable(error, this.options, 'read');
    }
  }

  private async *readAll(entries: AsyncGenerator<[string, string]>): AsyncGenerator<[string, string]> {
    for (;;) {
      const next = await this.read(() => entries.next());
      if (next.done) return;
      yield next.value;
    }
  }
}
