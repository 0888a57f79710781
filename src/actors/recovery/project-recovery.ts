import { keys } from '../../../snapshots/keys.js';
import type { RecoveryNotice } from '../../../snapshots/recovery.js';
import type { Store } from '../../../snapshots/store.js';
import type { ProjectState } from '../../domain/project-state.js';
import type { Flag } from '../../domain/types.js';
import { emptyProject, stateFromSnapshot, type ProjectModel, type ProjectSnapshotMeta } from '../project-model.js';
import { recoverState, type Recovered } from './recover.js';
import { isUnavailableError, type UnavailableError } from './service-recovery.js';

/** One project recovered to be served: its model and what recovery rebuilt. */
export interface RecoveredProject {
  id: string;
  model: ProjectModel;
  recovered: Recovered<ProjectState>;
}

/** Every stored project, sorted by what recovery found: to serve, deleted (to purge), or not recoverable. */
export interface RecoveredProjects {
  served: RecoveredProject[];
  /** Projects whose log ends with their deletion: their keys are to be removed once the service is recovered. */
  deleted: string[];
  unavailable: Map<string, UnavailableError>;
  /** What recovery worked around, project by project in stored order. */
  notices: RecoveryNotice[];
}

/**
 * Recovers every project registered in `store` with the model `modelOf` builds for it. A damaged record or a
 * snapshot this code cannot read makes that project unavailable (the others are served); any other error
 * stops the start.
 *
 * @example const { served, deleted, unavailable } = await recoverProjects(store, (id) => projectModel(id));
 */
export async function recoverProjects(store: Store, modelOf: (id: string) => ProjectModel): Promise<RecoveredProjects> {
  const found: RecoveredProjects = { served: [], deleted: [], unavailable: new Map(), notices: [] };
  for await (const key of store.keys(keys.projectsPrefix)) {
    const id = key.slice(keys.projectsPrefix.length);
    try {
      const model = modelOf(id);
      const recovered = await recoverState(store, model, (meta: ProjectSnapshotMeta, flags: Flag[]) => stateFromSnapshot(meta, flags), () => emptyProject(id));
      found.notices.push(...recovered.notices);
      if (recovered.state.meta.deleted) found.deleted.push(id);
      else found.served.push({ id, model, recovered });
    } catch (error) {
      if (!isUnavailableError(error)) throw error;
      found.unavailable.set(id, error);
    }
  }
  return found;
}
