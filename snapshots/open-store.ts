import { LevelStore } from './level-store.js';
import { databaseLabel, type DatabaseOptions } from './pg/pg-options.js';
import type { Store, StoreOptions } from './store.js';

export type { DatabaseOptions } from './pg/pg-options.js';

/** Where the data lives: a PostgreSQL database when `database` is given, else LevelDB in `dataDir`. */
export interface StoreLocation {
  dataDir: string;
  database?: DatabaseOptions | undefined;
}

/**
 * Opens the store `location` names: PostgreSQL (`DATABASE_URL` set) or LevelDB in the data directory. Every
 * caller above gets the {@link Store} contract and never learns which. The PostgreSQL store and its driver are
 * loaded only for a database: ~0.1 s of CPU that every process on LevelDB (the service, each CLI command) paid.
 *
 * @example const store = await openStore({ dataDir: config.dataDir, database: config.database });
 */
export async function openStore(location: StoreLocation, options: StoreOptions = {}): Promise<Store> {
  if (!location.database) return LevelStore.open(location.dataDir, options);
  const { PgStore } = await import('./pg/pg-store.js');
  return PgStore.open(location.database, options);
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
