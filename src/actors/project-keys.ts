import { encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import type { ProjectMeta } from '../domain/types.js';

/**
 * The registration of a new project: written in the same batch as its first log record, and what recovery
 * lists to find the stored projects.
 *
 * @example new CommandActor({ ..., firstOps: [projectRegistration(meta)] })
 */
export function projectRegistration(meta: ProjectMeta): BatchOp {
  return { type: 'put', key: keys.project(meta.id), value: encode({ id: meta.id, createdAt: meta.createdAt }) };
}

/**
 * The deletions of every key of project `id`, registration first (without it the rest is never read).
 *
 * @example await store.writeInSlices(await projectKeyDeletions(store, 'p'), { sync: true });
 */
export async function projectKeyDeletions(store: Store, id: string): Promise<{ type: 'del'; key: string }[]> {
  const ops: { type: 'del'; key: string }[] = [{ type: 'del', key: keys.project(id) }];
  for (const prefix of [keys.logPrefix({ project: id }), keys.snapshotPrefix({ project: id })]) {
    for await (const key of store.keys(prefix)) ops.push({ type: 'del', key });
  }
  return ops;
}
