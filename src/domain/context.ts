import type { Limits } from '../limits.js';

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
