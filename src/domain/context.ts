import type { Limits } from '../limits.js';
import type { ContextField, StrategyDefinition } from './definitions.js';
import type { Segment, SegmentRef, SegmentUse } from './segment.js';

/**
 * What the caller holds that decisions of change requests need (`callerRights`, src/auth/permissions.ts, from
 * the permission table where the caller is known). flagpole's roles do not differ by environment, so one set
 * serves every environment of the project.
 */
export interface CallerRights {
  /** `SKIP_CHANGE_REQUEST`: writes directly to environments whose changes go through change requests. */
  skipChangeRequests: boolean;
  /** `APPROVE_CHANGE_REQUEST`: approves and rejects change requests. */
  approveChangeRequests: boolean;
  /** `APPLY_CHANGE_REQUEST`: applies and schedules approved change requests. */
  applyChangeRequests: boolean;
  /** A root Admin or an admin token: approves their own requests, and acts on anyone's as their author may. */
  admin: boolean;
}
import type { Flag } from './types.js';

/** What the actor tells a decision: when, who, and the sequence number its record will get. */
export interface ActorContext {
  at: string;
  by: string;
  seq: number;
  /** The command's place in its mailbox's order of arrival (1, 2, ...); absent outside an actor. */
  arrival?: number | undefined;
  /**
   * What the sender may do, for the rules that depend on it (change requests); absent for the service's own
   * commands (a start's catch-up, the scheduler), which no caller rule refuses.
   */
  rights?: CallerRights | undefined;
}

/** Facts a decision may use that are not in the state: the actor's context and the configured limits. */
export interface CommandContext extends ActorContext {
  limits: Limits;
}

/** What a project's decisions may look up outside the project (read, never changed). */
export interface ProjectLookups {
  /**
   * A segment as committed in the service; undefined when there is none. `changing` for a command that
   * arrived (`arrival`) after a delete or a move of the segment to another project began: no new reference
   * may slip in behind the check that decides it. Whether its project allows this one is the decision's to say.
   */
  segment(id: number, arrival: number | undefined): SegmentRef | 'changing' | undefined;
  /** A segment as committed in the service, whole (a change request's snapshot of it); undefined when there is none. */
  storedSegment?(id: number): Segment | undefined;
  /** A strategy definition as committed in the service; undefined when there is none of that name. */
  strategyDefinition(name: string): StrategyDefinition | undefined;
  /** A context field as committed in the service; undefined when there is none of that name. */
  contextField(name: string): ContextField | undefined;
}

/** A project command's context; without `lookups` no segment is known (pure tests, replay). */
export interface ProjectContext extends CommandContext {
  lookups?: ProjectLookups | undefined;
}

/** Where a segment is referenced, from the committed project states. */
export interface SegmentUsage {
  uses: SegmentUse[];
  /** Projects whose state could not be recovered: whether they reference it is unknown. */
  unreadable: string[];
}

/** What the service's decisions may look up outside its own state (read, never changed). */
export interface ServiceLookups {
  /** Whether a project with this id exists (token scopes and project segments name projects). */
  projectExists(id: string): boolean;
  /** Where segment `id` is referenced in the committed project states. */
  segmentUses(id: number): SegmentUsage;
  /** The projects connected to an environment, in the committed project states. */
  environmentProjects(name: string): string[];
  /** The committed flags of every project served (the potential-staleness check reads them). */
  flagsByProject(): FlagsByProject;
}

/** Every served project's committed flags, and the projects whose state could not be recovered. */
export interface FlagsByProject {
  served: [project: string, flags: ReadonlyMap<string, Flag>][];
  unreadable: string[];
}
