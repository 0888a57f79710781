import { DumpError, checkReachable, openForReading, projectIds } from '../../snapshots/dump-format.js';
import { locationLabel, type StoreLocation } from '../../snapshots/open-store.js';
import type { RecoveryNotice } from '../../snapshots/recovery.js';
import type { Store } from '../../snapshots/store.js';
import { emptyProject, projectModel, stateFromSnapshot } from '../actors/project-model.js';
import { recoverState, type Recovered } from '../actors/recover.js';
import { REPLAY_ONLY, emptyServiceState, serviceModel } from '../actors/service-model.js';
import { buildDump, type AtSeq, type Dump } from '../actors/state-dump.js';
import type { ProjectState } from '../domain/project-state.js';
import type { ServiceState } from '../domain/service-state.js';
import type { Flag, ProjectMeta } from '../domain/types.js';

export { DumpError, stableStringify } from '../../snapshots/dump-format.js';

export interface DumpOptions {
  /** Only this project (and no service part). */
  project?: string | undefined;
  /** Replay the project's log only up to this sequence number (needs `project`). */
  at?: number | undefined;
  /** Receives what recovery worked around (a damaged snapshot it fell back from). */
  notices?: RecoveryNotice[];
  /** Called after each project is recovered (a full dump), for a progress bar. */
  onProject?: (done: number, total: number) => void;
}

/**
 * Dumps a stopped service's store, a data directory or a database (`source`; a running service's lock
 * refuses a second opener: LevelDB's lock file, PostgreSQL's node lock). Every scope
 * is recovered as at start, with the service's own recovery code and models, so what it prints is exactly
 * what the service would load: newest good snapshot plus log; `at` stops a project's replay there.
 *
 * @example stableStringify(await dumpDataDir('./data', { project: 'default', at: 12 }))
 */
export async function dumpDataDir(source: string | StoreLocation, options: DumpOptions = {}): Promise<Dump> {
  if (options.at !== undefined && options.project === undefined) throw new DumpError('--at needs --project: every project has its own sequence numbers');
  const location = typeof source === 'string' ? { dataDir: source } : source;
  const store = await openForReading(location);
  const noted = <T extends { notices: RecoveryNotice[] }>(recovered: T): T => {
    options.notices?.push(...recovered.notices);
    return recovered;
  };
  try {
    const ids = await projectIds(store);
    if (options.project !== undefined) {
      if (!ids.includes(options.project)) throw new DumpError(`no project "${options.project}" in ${locationLabel(location)}`);
      if (options.at !== undefined) await checkReachable(store, { project: options.project }, options.at);
      return buildDump([noted(await recoverProject(store, options.project, options.at))]);
    }
    const projects: AtSeq<ProjectState>[] = [];
    for (const [i, id] of ids.entries()) {
      const recovered = noted(await recoverProject(store, id));
      // Deleted, its data not yet removed (the next start removes it): not part of the installation any more.
      if (!recovered.state.meta.deleted) projects.push(recovered);
      options.onProject?.(i + 1, ids.length);
    }
    const service = noted(await recoverState(store, serviceModel(REPLAY_ONLY), (meta: ServiceState) => meta, emptyServiceState));
    return buildDump(projects, service);
  } finally {
    await store.close();
  }
}

function recoverProject(store: Store, id: string, at?: number): Promise<Recovered<ProjectState>> {
  return recoverState(store, projectModel(id), (meta: ProjectMeta, flags: Flag[]) => stateFromSnapshot(meta, flags), () => emptyProject(id), at);
}
