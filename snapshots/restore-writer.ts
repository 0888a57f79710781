import { existsSync, readdirSync } from 'node:fs';
import { encode } from './codec.js';
import { keys, type Scope } from './keys.js';
import { writeSnapshot } from './snapshot-writer.js';
import { isEmpty, locationLabel, openStore, type StoreLocation } from './open-store.js';

/** A dump that cannot be restored; the message says why. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

/** One scope to write: its snapshot at `seq`, recording the machine versions its items hold. */
export interface ScopeImage {
  scope: Scope;
  seq: number;
  machines: Readonly<Record<string, number>>;
  meta: unknown;
  items: readonly unknown[];
}

/**
 * Writes scope images into an empty (or missing) data directory or an empty database: one snapshot per scope, then the
 * registration key of each project (last: a project is only listed once its snapshot is there). Starting
 * the service on it recovers exactly those states (`onImage` is told the items of each once written, for a progress bar), and new commands continue each sequence. A restore cut
 * short leaves a non-empty directory, which a second restore refuses: empty it and rerun.
 */
export async function writeImages(location: StoreLocation, images: ScopeImage[], projects: { id: string; createdAt: string }[], onImage?: (items: number) => void): Promise<void> {
  const { dataDir } = location;
  if (!location.database && existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new RestoreError(`${dataDir} is not empty: restore only writes into an empty data directory`);
  const store = await openStore(location, { alone: true }).catch((error: unknown) => {
    throw new RestoreError(`cannot open ${locationLabel(location)}: ${(error as Error).message}`);
  });
  try {
    if (!(await isEmpty(store))) throw new RestoreError(`${store.label} is not empty: restore only writes into an empty database (or schema)`);
    const at = new Date().toISOString();
    for (const image of images) {
      await writeSnapshot(store, image.scope, { seq: image.seq, at, machines: image.machines, meta: image.meta }, image.items);
      onImage?.(image.items.length);
    }
    await store.commit(projects.map((p) => ({ type: 'put', key: keys.project(p.id), value: encode({ id: p.id, createdAt: p.createdAt }) })));
  } finally {
    await store.close();
  }
}
