import type { ClientBase } from 'pg';
import { crc32 } from 'node:zlib';

/** The names of flagpole's tables in one schema, quoted for SQL, and of what else lives per schema. */
export interface Tables {
  schema: string;
  /** Every log record: `(scope, seq)` its primary key, `rev` its place in the global commit order. */
  log: string;
  /** Every other key (registrations, snapshots, usage, sessions), in byte order of the key (`COLLATE "C"`). */
  kv: string;
  /** One row: the last `rev` handed out. Its row lock orders the appends of every node. */
  counter: string;
  /** One row: the schema version the migrations reached. */
  version: string;
  /** The log table's primary key, as the database names it in a unique violation. */
  logPrimaryKey: string;
  /** The channel told the last rev of every commit that appends records (`pg_notify`). */
  channel: string;
  /** The budgets counted across nodes (`pg-budgets.ts`): one row per key and window. */
  budget: string;
  /** The channel of the signals nodes send each other (`SharedLog.signal`). */
  signals: string;
  /**
   * The advisory lock keys of this schema: migrations (a transaction lock), and the one every node holds shared
   * while it runs and an offline tool holds alone (a session lock).
   */
  locks: { migrate: [number, number]; node: [number, number] };
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;
/** The first key of flagpole's advisory locks ('flag' in ASCII), the second a hash of the schema and purpose. */
const LOCK_CLASS = 0x666c6167;
/** The advisory lock key of `purpose` (a migration, a lock or a lease by name) in `schema`. */
export const lockKey = (purpose: string, schema: string): [number, number] => [LOCK_CLASS, crc32(`${purpose}:${schema}`) | 0];

/** The tables of `schema`. */
export function tablesOf(schema: string): Tables {
  const q = quote(schema);
  return {
    schema,
    log: `${q}.flagpole_log`,
    kv: `${q}.flagpole_kv`,
    counter: `${q}.flagpole_counter`,
    version: `${q}.flagpole_schema`,
    logPrimaryKey: 'flagpole_log_pkey',
    channel: schema === 'public' ? 'flagpole_log' : `flagpole_log.${schema}`,
    budget: `${q}.flagpole_budget`,
    signals: schema === 'public' ? 'flagpole_signal' : `flagpole_signal.${schema}`,
    locks: { migrate: lockKey('migrate', schema), node: lockKey('node', schema) },
  };
}

/**
 * The migrations, in order: migration N (1-based) takes the schema from version N-1 to N. Append only; a
 * shipped migration is never edited.
 */
const MIGRATIONS: ((t: Tables) => string[])[] = [
  (t) => [
    `CREATE TABLE ${t.log} (
       scope text COLLATE "C" NOT NULL,
       seq bigint NOT NULL,
       rev bigint NOT NULL,
       record text NOT NULL,
       CONSTRAINT flagpole_log_pkey PRIMARY KEY (scope, seq),
       CONSTRAINT flagpole_log_rev_key UNIQUE (rev))`,
    `CREATE TABLE ${t.kv} (key text COLLATE "C" PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE ${t.counter} (id integer PRIMARY KEY CHECK (id = 1), rev bigint NOT NULL)`,
    `INSERT INTO ${t.counter} (id, rev) VALUES (1, 0)`,
  ],
  // 2: budgets shared by the nodes (sign-in failures, Edge validations); `ends` finds the windows to clean up.
  (t) => [
    `CREATE TABLE ${t.budget} (
       key text COLLATE "C" PRIMARY KEY,
       start bigint NOT NULL,
       ends bigint NOT NULL,
       used integer NOT NULL,
       granted boolean NOT NULL)`,
    `CREATE INDEX flagpole_budget_ends ON ${t.budget} (ends)`,
  ],
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The database's schema was migrated by newer code than this: starting would misread it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';

  constructor(schema: string, found: number) {
    super(`the database schema "${schema}" is at version ${found}, newer than this flagpole knows (${SCHEMA_VERSION}): it was upgraded by a newer flagpole. Run that version (or newer), or restore a backup into an empty database`);
  }
}

/**
 * Creates or upgrades flagpole's tables in one transaction, under an advisory lock so that nodes starting
 * together migrate once; refuses a schema newer than {@link SCHEMA_VERSION}. Returns the version found.
 */
export async function migrate(client: ClientBase, tables: Tables): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', tables.locks.migrate);
    if (tables.schema !== 'public') await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(tables.schema)}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${tables.version} (version integer NOT NULL)`);
    const rows = (await client.query<{ version: number }>(`SELECT version FROM ${tables.version}`)).rows;
    const found = rows[0]?.version ?? 0;
    if (rows.length === 0) await client.query(`INSERT INTO ${tables.version} (version) VALUES (0)`);
    if (found > SCHEMA_VERSION) throw new SchemaTooNewError(tables.schema, found);
    for (let version = found; version < SCHEMA_VERSION; version += 1) {
      for (const statement of MIGRATIONS[version]!(tables)) await client.query(statement);
    }
    if (found < SCHEMA_VERSION) await client.query(`UPDATE ${tables.version} SET version = $1`, [SCHEMA_VERSION]);
    await client.query('COMMIT');
    return found;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
