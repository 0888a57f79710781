import type { StoreLocation } from '../../snapshots/open-store.js';
import { readConfig } from '../config.js';

/** The PostgreSQL settings the tools read from the environment besides the URL (docs/operations.md). */
const DATABASE_VARIABLES = ['DATABASE_URL', 'DATABASE_URL_FILE', 'DATABASE_SSL_CA_FILE', 'DATABASE_POOL_SIZE', 'DATABASE_STATEMENT_TIMEOUT_MS', 'DATABASE_SCHEMA'];

/** What a tool was told of its store on the command line. */
export interface StoreFlags {
  dataDir?: string | undefined;
  databaseUrl?: string | undefined;
  /** The schema, over `DATABASE_SCHEMA`. */
  schema?: string | undefined;
}

/**
 * The store a tool works on: `--data-dir` (LevelDB), or `--database-url`, or else `DATABASE_URL` (or
 * `DATABASE_URL_FILE`) from `env` (the run's environment), with the `DATABASE_*` settings beside it. `usage` is called with
 * what is wrong (both given, none, a bad setting: never repeating the URL).
 *
 * @example const location = storeLocation(options, (message) => command.error(message), run.env);
 */
export function storeLocation(flags: StoreFlags, usage: (message: string) => never, env: NodeJS.ProcessEnv): StoreLocation {
  if (flags.dataDir !== undefined && flags.databaseUrl !== undefined) usage('give the store once: --data-dir (LevelDB) or --database-url (PostgreSQL), not both');
  if (flags.dataDir !== undefined) return { dataDir: flags.dataDir };
  const settings: Record<string, string> = {};
  for (const name of DATABASE_VARIABLES) if (env[name] !== undefined) settings[name] = env[name]!;
  if (flags.databaseUrl !== undefined) {
    settings['DATABASE_URL'] = flags.databaseUrl;
    delete settings['DATABASE_URL_FILE'];
  }
  if (flags.schema !== undefined) settings['DATABASE_SCHEMA'] = flags.schema;
  if (!settings['DATABASE_URL'] && !settings['DATABASE_URL_FILE']) usage('give the store: --data-dir DIR (LevelDB), or --database-url URL or DATABASE_URL (PostgreSQL)');
  let database;
  try {
    database = readConfig(settings).database;
  } catch (error) {
    return usage((error as Error).message.replace(/^DATABASE_URL\b/, flags.databaseUrl === undefined ? 'DATABASE_URL' : '--database-url'));
  }
  return { dataDir: '', database: database ?? undefined };
}

/** A value of `--from`/`--to` of copy-store: a PostgreSQL URL, or else a data directory. */
export function storeArgument(value: string, schema: string | undefined, usage: (message: string) => never): StoreLocation {
  return /^postgres(ql)?:\/\//i.test(value) ? storeLocation({ databaseUrl: value, schema }, usage, {}) : { dataDir: value };
}
