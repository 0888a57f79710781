import type { Limits } from '../limits.js';
import type { SegmentRef } from './segment.js';

/** What the actor tells a decision: when, who, and the sequence number its record will get. */
export interface ActorContext {
  at: string;
  by: string;
  seq: number;
}

/** Facts a decision may use that are not in the state: the actor's context and the configured limits. */
export interface CommandContext extends ActorContext {
  limits: Limits;
}

/** What a project's decisions may look up outside the project (read, never changed). */
export interface ProjectLookups {
  /**
   * A segment as committed in the service, unless it is being deleted or moved to another project at this
   * moment (then undefined, as for an unknown id, so no new reference can slip in). Whether its project
   * allows this one is the decision's to say.
   */
  segment(id: number): SegmentRef | undefined;
}

/** A project command's context; without `lookups` no segment is known (pure tests, replay). */
export interface ProjectContext extends CommandContext {
  lookups?: ProjectLookups | undefined;
}
