import type { Decision, DomainError } from './errors.js';

/**
 * What a use case, a query or a lookup answers: its value and, for a command on one flag, the flag's version
 * after it (the answer's `ETag`); or an expected failure from the closed vocabulary of `errors.ts`. A decision
 * of an actor is a {@link Decision}: events and a reply.
 */
export type Result<T> = { ok: true; value: T; version?: number } | { ok: false; error: DomainError };

/**
 * The answer of a command that targets one flag: what it answers, and the flag's version after it (the
 * version it was given, or the one it kept when the command changed nothing): the `ETag` of the answer.
 */
export interface Versioned<T> {
  value: T;
  version: number;
}

/** A success. @example ok(flag, flag.version) */
export const ok = <T>(value: T, version?: number): Result<T> => (version === undefined ? { ok: true, value } : { ok: true, value, version });

/** A failure. @example failed(fail('NotFoundError', 'Could not find project "p"')) */
export const failed = <T>(error: DomainError): Result<T> => ({ ok: false, error });

/** A decision's reply as a result. @example fromDecision(await actor.send(command, by)) */
export function fromDecision<T>(decision: Decision<unknown, T>): Result<T> {
  return decision.ok ? ok(decision.reply) : failed(decision.error);
}

/** A flag command's decision as a result carrying the flag's version. */
export function fromVersioned<T>(decision: Decision<unknown, Versioned<T>>): Result<T> {
  return decision.ok ? ok(decision.reply.value, decision.reply.version) : failed(decision.error);
}
