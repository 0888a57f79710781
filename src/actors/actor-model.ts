import type { Scope } from '../../snapshots/keys.js';
import type { ActorContext } from '../domain/context.js';
import type { Decision } from '../domain/errors.js';

/** A command: something with a `type`. */
export type Command = { type: string };

/** What each command type answers, by type. */
export type Replies<C extends Command> = { [K in C['type']]: unknown };

/**
 * The pure logic an actor runs: decide a command against a working draft, evolve the draft with the
 * events, then publish the draft as the new committed state once it is on disk. `RM` maps each command
 * type to its reply, so `send` answers with the command's own reply type.
 */
export interface Model<S, D, C extends Command, E, RM extends Replies<C>> {
  readonly scope: Scope;
  fork(state: S): D;
  decide<K extends C>(draft: D, command: K, context: ActorContext): Decision<E, RM[K['type']]>;
  evolve(draft: D, event: E): void;
  publish(state: S, draft: D): S;
  /** What a snapshot of `state` holds: a small meta value and a list of immutable items. */
  snapshotOf(state: S): { meta: unknown; items: readonly unknown[] };
  /** Machine versions recorded in snapshot heads. */
  readonly machines: Readonly<Record<string, number>>;
}

/** One committed log record, as the feed passes it on. */
export interface CommittedRecord<E = unknown> {
  seq: number;
  at: string;
  by: string;
  events: readonly E[];
}
