import type { Store } from '../../snapshots/store.js';
import type { ProjectLookups } from '../domain/context.js';
import { fail, refuse, type Decision } from '../domain/errors.js';
import type { ProjectEvent } from '../domain/events.js';
import type { ProjectState } from '../domain/project-state.js';
import type { ProjectMeta } from '../domain/types.js';
import { LIMIT_VARIABLES, overLimit, type Limits } from '../limits.js';
import type { ProjectActor, ServiceActor } from './actor-types.js';
import type { ActorOptions } from './actor-options.js';
import type { Sequencer } from './cluster/sequencer.js';
import { CommandActor } from './command-actor.js';
import type { ProjectActors } from './project-actors.js';
import { projectKeyDeletions, projectRegistration } from './project-keys.js';
import { projectLookups } from './project-lookups.js';
import { emptyProject, projectModel, type ProjectModel } from './project-model.js';
import type { Recovered } from './recovery/recover.js';
import type { SegmentFences } from './segment-fences.js';
import { StorageError } from './storage-error.js';

/** What the project lifecycle works with: the registry's store, served projects and service. */
export interface ProjectLifecycleParts {
  store: Store;
  projects: ProjectActors;
  limits: Limits;
  fences: SegmentFences;
  sequencer: Sequencer;
  options: () => ActorOptions;
  service: () => ServiceActor;
  /** Whether the service log is served (not read-only after a failed recovery). */
  serviceWritable: () => boolean;
}

/**
 * How a project's actor comes to be served and stops being served: created, recovered (at start or after
 * another node created it), deleted and purged. The registry's `createProject`/`deleteProject` run here.
 *
 * @example const actor = lifecycle.serve('web', lifecycle.modelOf('web'), recovered);
 */
export class ProjectLifecycle {
  constructor(private readonly parts: ProjectLifecycleParts) {}

  /** The model of project `id`'s actor, with what it looks up in the service while deciding (`project-lookups.ts`). */
  modelOf(id: string): ProjectModel {
    const lookups: ProjectLookups = projectLookups(id, () => this.parts.service().state, this.parts.fences);
    return projectModel(id, this.parts.limits, lookups);
  }

  /** Serves project `id` from what recovery rebuilt (at start, or one another node created). */
  serve(id: string, model: ProjectModel, recovered: Recovered<ProjectState>): ProjectActor {
    const { store, sequencer, projects } = this.parts;
    const actor: ProjectActor = new CommandActor({ store, model, state: recovered.state, seq: recovered.seq, options: this.parts.options(), sequencer, snapshotBytes: recovered.snapshotBytes });
    projects.serve(id, actor);
    return actor;
  }

  /**
   * Creates a project: the id is reserved at once (so concurrent creates of one id get one winner), and the
   * registration key is written in the same batch as the project's first log record.
   */
  async create(meta: ProjectMeta, by: string): Promise<Decision<ProjectEvent, ProjectMeta>> {
    const { store, sequencer, projects, limits } = this.parts;
    if (projects.taken(meta.id)) return refuse(fail('NameExistsError', `A project with id "${meta.id}" already exists`));
    if (projects.stored >= limits.projects) {
      return refuse(fail('ExceedsLimitError', overLimit('The number of projects', limits.projects, LIMIT_VARIABLES.projects)));
    }
    const model = this.modelOf(meta.id);
    const actor: ProjectActor = new CommandActor({ store, model, state: emptyProject(meta.id), seq: 0, options: this.parts.options(), sequencer, firstOps: [projectRegistration(meta)] });
    projects.serve(meta.id, actor);
    try {
      return await actor.send({ type: 'project.create', meta }, by);
    } catch (error) {
      projects.forget(meta.id);
      // The disk may still write it: keep the id held until it tells, then serve the project if it did.
      if (error instanceof StorageError && error.outcome) projects.holdUntil(meta.id, actor, error.outcome);
      throw error;
    }
  }

  /**
   * Deletes a project (docs/api-decisions.md "Projects and environments"): its mailbox decides it (refused
   * while it has active flags) and records the deletion; then the project stops being served, its keys are
   * removed and the service forgets it (tokens scoped to it alone, its segments). A stop between the record
   * and the removal is finished at the next start.
   */
  async delete(id: string, by: string): Promise<Decision<ProjectEvent, string[]>> {
    const { projects } = this.parts;
    const found = projects.find(id);
    if (!found.ok) return refuse(found.error);
    const actor = found.value;
    const decision = await actor.send({ type: 'project.delete' }, by);
    if (!decision.ok) return decision;
    // The deletion is on disk: from here the project is not served, whatever happens to the clean-up.
    projects.forget(id);
    projects.deletingStarted(id);
    try {
      // Commands queued behind the delete are refused (the project is deleted); a running snapshot must end before its keys go.
      await actor.retire();
      await this.purge(id, by);
      projects.deletingDone(id);
    } catch (error) {
      // The id stays reserved (its old keys are still there) until the next start finishes the clean-up.
      this.parts.options().log.error({ project: id, err: error }, `project "${id}" is deleted, but removing its data failed; the next start finishes it`);
    }
    return decision;
  }

  /**
   * The clean-up of a deleted project: the service forgets it (tokens scoped to it alone, its segments), then
   * every key of the project goes, registration first (without it the rest is never read). Both steps may be
   * repeated: a start after a stop in between runs them again.
   */
  async purge(id: string, by: string): Promise<void> {
    if (this.parts.serviceWritable()) await this.parts.service().send({ type: 'project.forget', project: id }, by);
    await this.parts.store.writeInSlices(await projectKeyDeletions(this.parts.store, id), { sync: true });
  }
}
