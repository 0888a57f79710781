import type { Store } from '../../../snapshots/store.js';
import type { ProjectState } from '../../domain/project-state.js';
import type { ServiceState } from '../../domain/service-state.js';
import type { Flag, ProjectMeta } from '../../domain/types.js';
import type { ProjectActor, ServiceActor } from '../actor-types.js';
import { emptyProject, stateFromSnapshot, type ProjectModel } from '../project-model.js';
import type { ProjectActors } from '../project-actors.js';
import { recoverState, type Recovered } from '../recovery/recover.js';
import { emptyServiceState, type ServiceModel } from '../service-model.js';
import type { ForeignTargets } from './cluster-node.js';

/** What the routing of other nodes' records needs of a registry. */
export interface ForeignTargetParts {
  store: Store;
  projects: ProjectActors;
  service: () => ServiceActor;
  serviceModel: () => ServiceModel;
  projectModel: (id: string) => ProjectModel;
  /** A new actor for project `id`, as recovered from the store. */
  serve: (id: string, model: ProjectModel, recovered: Recovered<ProjectState>) => ProjectActor;
}

/** A project's state from its snapshot and log in the store. */
const recoverProject = (store: Store, model: ProjectModel, id: string) =>
  recoverState(store, model, (meta: ProjectMeta, flags: Flag[]) => stateFromSnapshot(meta, flags), () => emptyProject(id));

/**
 * The registry's side of {@link ForeignTargets}: a project another node created is recovered from the store
 * and served; one it deleted (its last record says so, or the service forgot it) stops being served here,
 * without removing its data (the node that deleted it does); a scope the shared log skipped records of is
 * recovered again.
 */
export function foreignTargetsOf(parts: ForeignTargetParts): ForeignTargets {
  const { store, projects } = parts;
  const forget = (id: string) => {
    const actor = projects.get(id);
    if (!actor) return;
    projects.forget(id);
    void actor.retire();
  };
  return {
    service: parts.service,
    async project(id) {
      const served = projects.get(id);
      if (served) return served;
      const model = parts.projectModel(id);
      return parts.serve(id, model, await recoverProject(store, model, id));
    },
    async reload(scope) {
      if (scope === 'svc') {
        const recovered = await recoverState(store, parts.serviceModel(), (meta: ServiceState) => meta, emptyServiceState);
        parts.service().resetTo(recovered.state, recovered.seq);
        return;
      }
      const id = scope.slice('p/'.length);
      const actor = projects.get(id);
      const model = parts.projectModel(id);
      const recovered = await recoverProject(store, model, id);
      if (actor) actor.resetTo(recovered.state, recovered.seq);
      else parts.serve(id, model, recovered);
    },
    settled(id) {
      if (projects.get(id)?.state.meta.deleted) forget(id);
    },
    forgotten(record) {
      for (const event of record.events) if (event.type === 'project.forgotten' && event.project !== undefined) forget(event.project);
    },
  };
}
