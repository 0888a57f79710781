import { LevelStore } from './level-store.js';
import { databaseLabel, type DatabaseOptions } from './pg/pg-options.js';
import { PgStore } from './pg/pg-store.js';
import type { Store, StoreOptions } from './store.js';

export type { DatabaseOptions } from './pg/pg-options.js';

/** Where the data lives: a PostgreSQL database when `database` is given, else LevelDB in `dataDir`. */
export interface StoreLocation {
  dataDir: string;
  database?: DatabaseOptions | undefined;
}

/**
 * Opens the store `location` names: PostgreSQL (`DATABASE_URL` set) or LevelDB in the data directory. Every
 * caller above gets the {@link Store} contract and never learns which.
 *
 * @example const store = await openStore({ dataDir: config.dataDir, database: config.database });
 */
export async function openStore(location: StoreLocation, options: StoreOptions = {}): Promise<Store> {
  return location.database ? PgStore.open(location.database, options) : LevelStore.open(location.dataDir, options);
}

/** Where `location` keeps the data, safe to print: the directory, or the database without its credentials. */
export function locationLabel(location: StoreLocation): string {
  return location.database ? databaseLabel(location.database) : location.dataDir;
}

/** Whether `store` holds no key at all (a restore or a copy writes only into an empty store). */
export async function isEmpty(store: Store): Promise<boolean> {
  for await (const _ of store.keys('', { limit: 1 })) return false;
  return true;
}
