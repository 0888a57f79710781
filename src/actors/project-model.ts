import { PROJECT_MACHINE_VERSIONS } from '../../machines/versions.js';
import type { ProjectCommand, ProjectReplies } from '../domain/commands.js';
import type { ProjectLookups } from '../domain/context.js';
import { decide } from '../domain/decide.js';
import type { ProjectEvent } from '../domain/events.js';
import { ProjectDraft, evolve, type ProjectState } from '../domain/project-state.js';
import { metaWithDicts, withDicts } from '../domain/flag-events.js';
import type { Flag, ProjectMeta } from '../domain/types.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { bookFromStored, storedBook, type StoredBook } from '../domain/change-request-book.js';
import type { Model } from './actor-model.js';

export type ProjectModel = Model<ProjectState, ProjectDraft, ProjectCommand, ProjectEvent, ProjectReplies>;

/** Machine versions stored with every project snapshot, checked on recovery (see `machines/versions.ts`). */
export const PROJECT_MACHINES = PROJECT_MACHINE_VERSIONS;

/**
 * The pure logic of one project actor, wired for {@link CommandActor}, deciding within `limits` and looking
 * segments up through `lookups` (tools that only replay need none).
 */
export function projectModel(projectId: string, limits: Limits = DEFAULT_LIMITS, lookups?: ProjectLookups): ProjectModel {
  return {
    scope: { project: projectId },
    machines: PROJECT_MACHINES,
    fork: (state) => new ProjectDraft(state),
    // A literal of one shape, not a spread: spreading the actor's context took V8's slow property path (~6 µs a command).
    decide: (draft, command, { at, by, seq, arrival, rights }) => decide(draft, command, { at, by, seq, arrival, rights, limits, lookups }),
    evolve,
    publish: (state, draft) => draft.publishTo(state),
    snapshotOf: (state) => ({ meta: snapshotMeta(state), items: Array.from(state.flags.values()) }),
  };
}

/**
 * The meta a project snapshot holds: the project's meta and, once it had any, its change requests
 * (`changeRequestBook`); the items are its flags.
 */
export type ProjectSnapshotMeta = ProjectMeta & { changeRequestBook?: StoredBook };

/** The meta of a snapshot of `state` (see {@link ProjectSnapshotMeta}). */
export function snapshotMeta(state: ProjectState): ProjectSnapshotMeta {
  const book = storedBook(state.changeRequests);
  return book ? { ...state.meta, changeRequestBook: book } : state.meta;
}

/** A project's state from a snapshot's meta and flags. */
export function stateFromSnapshot(snapshot: ProjectSnapshotMeta, flags: Flag[]): ProjectState {
  const { changeRequestBook, ...meta } = snapshot;
  return {
    meta: metaWithDicts(meta),
    flags: new Map(flags.map((f) => [f.name, withDicts(f)])),
    changeRequests: bookFromStored(changeRequestBook),
    version: 0,
  };
}

/** A project before its first record (`project.created`): replay replaces this meta. */
export const emptyProject = (id: string): ProjectState =>
  stateFromSnapshot({ id, name: id, description: '', createdAt: new Date(0).toISOString(), environments: [], defaultStrategies: {}, members: {} }, []);
