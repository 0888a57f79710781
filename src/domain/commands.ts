import type { Operation } from 'fast-json-patch';
import type { CompletionStatus, Dependency, Flag, FlagType, ProjectMeta, ProjectMode, Strategy, StrategyInput, StrategyOrder, Tag, Variant } from './types.js';
import type { ImportPlan, ImportReport } from './import-plan.js';
import type { Versioned } from './result.js';
import type { ChangeRequest } from './change-request.js';
import type { ApplyOutcome, ChangeRequestCommand } from './change-request-commands.js';

/**
 * The flag version a caller last saw (`If-Match`): a version, or `mismatch` for a header that names none.
 * Absent: the write is unconditional.
 */
export type IfMatch = number | 'mismatch' | undefined;

/** Commands that target one flag may carry the flag version the caller last saw. */
interface FlagTarget {
  feature: string;
  ifMatch?: IfMatch;
}

interface EnvironmentTarget extends FlagTarget {
  environment: string;
}

/** What `PUT /api/admin/projects/:projectId` sets; an absent field keeps its value (as in Unleash). */
export interface ProjectSettings {
  name: string;
  description?: string | undefined;
  mode?: ProjectMode | undefined;
  defaultStickiness?: string | undefined;
}

/** Every command a project actor accepts; names are imperative. */
export type ProjectCommand =
  | { type: 'project.create'; meta: ProjectMeta }
  /** Replaces the settings a `PUT` carries; the id, environments and members stay. */
  | { type: 'project.update'; settings: ProjectSettings }
  /** Deletes the project (refused while it has active flags); its archived flags go with it. */
  | { type: 'project.delete' }
  | { type: 'flag.create'; name: string; description: string; flagType: FlagType; impressionData: boolean }
  | ({ type: 'flag.update'; description: string; flagType: FlagType; stale: boolean; impressionData: boolean } & FlagTarget)
  | ({ type: 'flag.patch'; operations: Operation[] } & FlagTarget)
  | ({ type: 'flag.archive' } & FlagTarget)
  | { type: 'flag.revive'; features: string[] }
  | { type: 'flag.delete-archived'; features: string[] }
  /** Marks the flag completed (Unleash's lifecycle), or records a new status when it is already. */
  | ({ type: 'flag.complete'; status: CompletionStatus; statusValue?: string | undefined } & FlagTarget)
  | ({ type: 'flag.uncomplete' } & FlagTarget)
  /**
   * SDKs reported these flags from `environment` (`production`: of that type): each enters the lifecycle
   * stages the flag-stage machine says; flags that enter none, and unknown names, are left alone.
   */
  | { type: 'flags.note-seen'; features: string[]; environment: string; production: boolean }
  /** Bulk writes (Unleash's bulk routes): each flag listed once; see `decide/bulk.ts` for which names are ignored. */
  | { type: 'flags.stale'; features: string[]; stale: boolean }
  | { type: 'flags.archive'; features: string[] }
  /** `activateDisabled`: Unleash's `shouldActivateDisabledStrategies`, as on `flag.enable`. */
  | { type: 'flags.enable'; features: string[]; environment: string; activateDisabled?: boolean }
  | { type: 'flags.disable'; features: string[]; environment: string }
  | ({ type: 'flag.clone'; name: string; replaceGroupId: boolean } & FlagTarget)
  | ({ type: 'strategy.add'; strategy: StrategyInput } & EnvironmentTarget)
  | ({ type: 'strategy.update'; strategyId: string; strategy: StrategyInput } & EnvironmentTarget)
  | ({ type: 'strategy.patch'; strategyId: string; operations: Operation[] } & EnvironmentTarget)
  | ({ type: 'strategy.delete'; strategyId: string } & EnvironmentTarget)
  /** New `sortOrder`s of some strategies of the environment; every id must be one of them. */
  | ({ type: 'strategy.set-sort-order'; order: StrategyOrder[] } & EnvironmentTarget)
  /** Copies the flag's strategies (all, or the listed ids) from `fromEnvironment` to `environment`. */
  | ({ type: 'strategy.copy'; fromEnvironment: string; strategyIds?: string[] } & EnvironmentTarget)
  /**
   * `activateDisabled` (Unleash's `shouldActivateDisabledStrategies`): every disabled strategy of the environment is
   * enabled with it. `rolloutWithoutDefault` (the console's offer): when nothing would serve the flag and the
   * project has no default strategy for the environment, a 100% gradual rollout is added first.
   */
  | ({ type: 'flag.enable'; activateDisabled?: boolean; rolloutWithoutDefault?: boolean } & EnvironmentTarget)
  | ({ type: 'flag.disable' } & EnvironmentTarget)
  | ({ type: 'variants.set'; variants: Variant[] } & FlagTarget)
  | ({ type: 'variants.patch'; operations: Operation[] } & FlagTarget)
  | { type: 'default-strategy.set'; environment: string; strategy: StrategyInput }
  /** `restore`: the default strategy to put back (undoing a release that a later step refused). */
  | { type: 'environment.connect'; environment: string; restore?: StrategyInput | undefined }
  | { type: 'environment.disconnect'; environment: string }
  /** Disconnects an environment being deleted from the service: refused while a flag (archived too) has an entry there. */
  | { type: 'environment.release'; environment: string }
  | { type: 'member.add'; userId: number; roleId: number }
  | { type: 'member.change'; userId: number; roleId: number }
  | { type: 'member.remove'; userId: number; roleId: number }
  | { type: 'member.purge'; userId: number }
  /** Adds and removes tags on every listed flag, all or nothing (the tag types were checked by the caller). */
  | { type: 'tags.change'; features: string[]; added: Tag[]; removed: Tag[] }
  /** Removes every tag of a tag type being deleted from every flag carrying one, archived flags included. */
  | { type: 'tags.drop-type'; tagType: string }
  /** `elsewhere`: whether another project has a flag named like the parent (only for the refusal's message). */
  | ({ type: 'dependency.add'; dependency: Dependency; elsewhere: boolean } & FlagTarget)
  /** `parent` absent: every dependency of the flag. */
  | ({ type: 'dependency.remove'; parent?: string } & FlagTarget)
  /**
   * Imports flags into one environment, all or nothing (`decide/import.ts`); `dryRun`: decide and report,
   * record nothing.
   */
  | { type: 'flags.import'; plan: ImportPlan; dryRun: boolean }
  /** The service now holds the import's tag types and context fields: clears `meta.pendingImport`. */
  | { type: 'import.settle' }
  | ChangeRequestCommand;

export type ProjectCommandType = ProjectCommand['type'];

/** The command of one type. */
export type Cmd<T extends ProjectCommandType> = Extract<ProjectCommand, { type: T }>;

/**
 * What each command answers when accepted. The actor's `send` takes its reply type from here, so a caller
 * never casts: `send({ type: 'flag.create', ... })` resolves to a `Versioned<Flag>`.
 */
export interface ProjectReplies {
  'project.create': ProjectMeta;
  'project.update': ProjectMeta;
  /** The archived flags deleted with it. */
  'project.delete': string[];
  'flag.create': Versioned<Flag>;
  'flag.update': Versioned<Flag>;
  'flag.patch': Versioned<Flag>;
  'flag.archive': Versioned<null>;
  'flag.revive': null;
  'flag.delete-archived': null;
  'flag.complete': Versioned<null>;
  'flag.uncomplete': Versioned<null>;
  'flags.note-seen': null;
  'flags.stale': null;
  'flags.archive': null;
  'flags.enable': null;
  'flags.disable': null;
  'flag.clone': Versioned<Flag>;
  'strategy.add': Versioned<Strategy>;
  'strategy.update': Versioned<Strategy>;
  'strategy.patch': Versioned<Strategy>;
  'strategy.delete': Versioned<null>;
  'strategy.set-sort-order': Versioned<null>;
  'strategy.copy': Versioned<Strategy[]>;
  'flag.enable': Versioned<null>;
  'flag.disable': Versioned<null>;
  'variants.set': Versioned<Variant[]>;
  'variants.patch': Versioned<Variant[]>;
  'default-strategy.set': StrategyInput;
  'environment.connect': null;
  'environment.disconnect': null;
  /** The default strategy the project had for it, to put back if the deletion is refused later. */
  'environment.release': StrategyInput | null;
  'member.add': null;
  'member.change': null;
  'member.remove': null;
  'member.purge': null;
  /** The tags of each listed flag after the change, in the order given. */
  'tags.change': Tag[][];
  /** The flags that lost tags. */
  'tags.drop-type': string[];
  'dependency.add': Versioned<null>;
  'dependency.remove': Versioned<null>;
  'flags.import': ImportReport;
  'import.settle': null;
  'change-request.configure': null;
  'change-request.add': ChangeRequest;
  'change-request.edit-change': ChangeRequest;
  'change-request.discard-change': ChangeRequest;
  'change-request.discard': null;
  'change-request.set-title': ChangeRequest;
  'change-request.comment': ChangeRequest;
  'change-request.set-reviewers': ChangeRequest;
  'change-request.transition': ChangeRequest;
  'change-request.apply': ApplyOutcome;
  'change-request.settle-segments': null;
  'change-request.scheduler-deleted': number[];
}
