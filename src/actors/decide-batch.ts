import { encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { LogRecord } from '../../snapshots/records.js';
import type { BatchOp } from '../../snapshots/store.js';
import type { CallerRights } from '../domain/context.js';
import type { Decision } from '../domain/errors.js';
import type { Command, CommittedRecord, Model, Replies } from './actor-model.js';

/** A command waiting in an actor's mailbox, with whoever waits for its decision. */
export interface Envelope<C, E> {
  command: C;
  by: string;
  /** What the sender may do (change-request rules); absent for the service's own commands. */
  rights?: CallerRights | undefined;
  /** Its place in the order of arrival (1, 2, ...). */
  arrival: number;
  resolve: (decision: Decision<E, unknown>) => void;
  reject: (error: unknown) => void;
}

/** A batch decided against one draft: what to write, what was committed to it, and each command's decision. */
export interface DecidedBatch<E> {
  /** One per envelope, in order; null where deciding threw (that caller was rejected already). */
  decisions: (Decision<E, unknown> | null)[];
  /** The log records to write (after any ops handed in). */
  ops: BatchOp[];
  committed: CommittedRecord<E>[];
  /** The types of the commands recorded, when asked for (the metrics count them). */
  types: string[] | null;
  /** The sequence number of the batch's last record. */
  seq: number;
}

/**
 * Decides every command of `batch` in order against `draft` (so later commands see earlier ones), evolving
 * the draft with each accepted command's events and encoding its log record. A decision or record that
 * throws is a bug: its caller gets the exception (a logged 500), the others go on. The record is encoded
 * before the draft evolves, so a failure leaves the draft untouched.
 *
 * @example const decided = decideBatch(model, model.fork(state), batch, { seq, at, ops: [], countTypes: false });
 */
export function decideBatch<S, D, C extends Command, E, RM extends Replies<C>>(
  model: Model<S, D, C, E, RM>, draft: D, batch: readonly Envelope<C, E>[],
  start: { seq: number; at: string; ops: BatchOp[]; countTypes: boolean },
): DecidedBatch<E> {
  const { at, ops } = start;
  const decisions: (Decision<E, unknown> | null)[] = [];
  const committed: CommittedRecord<E>[] = [];
  const types: string[] | null = start.countTypes ? [] : null;
  let seq = start.seq;
  for (const envelope of batch) {
    let decision: Decision<E, unknown>;
    let op: BatchOp | null = null;
    try {
      decision = model.decide(draft, envelope.command, { at, by: envelope.by, seq: seq + 1, arrival: envelope.arrival, rights: envelope.rights });
      if (decision.ok && decision.events.length > 0) {
        const record: LogRecord<C, E> = { seq: seq + 1, at, by: envelope.by, command: envelope.command, events: decision.events };
        op = { type: 'put', key: keys.log(model.scope, seq + 1), value: encode(record) };
      }
    } catch (error) {
      envelope.reject(error);
      decisions.push(null);
      continue;
    }
    decisions.push(decision);
    if (!op || !decision.ok) continue;
    for (const event of decision.events) model.evolve(draft, event);
    seq += 1;
    ops.push(op);
    committed.push({ seq, at, by: envelope.by, events: decision.events });
    types?.push(envelope.command.type);
  }
  return { decisions, ops, committed, types, seq };
}
