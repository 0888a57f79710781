import { FLAG_ENVIRONMENT_MACHINE_VERSION, FLAG_LIFECYCLE_MACHINE_VERSION } from '../../machines/step.js';
import type { ProjectCommand } from '../domain/commands.js';
import { decide } from '../domain/decide.js';
import type { ProjectEvent } from '../domain/events.js';
import { ProjectDraft, evolve, type ProjectState } from '../domain/project-state.js';
import type { Flag, ProjectMeta } from '../domain/types.js';
import type { Model } from './command-actor.js';

export type ProjectModel = Model<ProjectState, ProjectDraft, ProjectCommand, ProjectEvent, unknown>;

/** Machine versions stored with every project snapshot, so old data can be migrated. */
export const PROJECT_MACHINES = {
  'flag-environment': FLAG_ENVIRONMENT_MACHINE_VERSION,
  'flag-lifecycle': FLAG_LIFECYCLE_MACHINE_VERSION,
};

/** The pure logic of one project actor, wired for {@link CommandActor}. */
export function projectModel(projectId: string): ProjectModel {
  return {
    scope: { project: projectId },
    machines: PROJECT_MACHINES,
    fork: (state) => new ProjectDraft(state),
    decide,
    evolve,
    publish: (state, draft) => draft.publishTo(state),
    snapshotOf: (state) => ({ meta: state.meta, items: Array.from(state.flags.values()) }),
  };
}

/** A project's state from a snapshot's meta and flags. */
export const stateFromSnapshot = (meta: ProjectMeta, flags: Flag[]): ProjectState => ({
  meta,
  flags: new Map(flags.map((f) => [f.name, f])),
  version: 0,
});
