import { principalLabel, type Principal } from '../auth/permissions.js';
import type { ProjectCommand, ProjectReplies, Versioned } from '../domain/commands.js';
import type { Decision, DomainError } from '../domain/errors.js';
import type { Registry } from '../actors/registry.js';

/**
 * What a use case answers: its value and, for a command on one flag, the flag's version after it (the
 * answer's `ETag`); or an expected failure from the closed vocabulary of `domain/errors.ts`.
 */
export type Result<T> = { ok: true; value: T; version?: number } | { ok: false; error: DomainError };

/** A success. @example ok(flag, flag.version) */
export const ok = <T>(value: T, version?: number): Result<T> => (version === undefined ? { ok: true, value } : { ok: true, value, version });

/** A failure. */
export const failed = <T>(error: DomainError): Result<T> => ({ ok: false, error });

/** A decision's reply as a result. */
export function fromDecision<T>(decision: Decision<unknown, T>): Result<T> {
  return decision.ok ? ok(decision.reply) : failed(decision.error);
}

/** A flag command's decision as a result carrying the flag's version. */
export function fromVersioned<T>(decision: Decision<unknown, Versioned<T>>): Result<T> {
  return decision.ok ? ok(decision.reply.value, decision.reply.version) : failed(decision.error);
}

/**
 * Sends a command to the project `projectId`, on behalf of `principal`, and waits until it is durable. The
 * reply's type is the command's own (see `ProjectReplies`).
 *
 * @example const created = await sendToProject(registry, 'default', { type: 'flag.create', ... }, principal);
 */
export async function sendToProject<K extends ProjectCommand>(registry: Registry, projectId: string, command: K, principal: Principal): Promise<Result<ProjectReplies[K['type']]>> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  return fromDecision(await found.actor.send(command, principalLabel(principal)));
}

/** {@link sendToProject} for a command on one flag: the result carries the flag's version after it. */
export async function sendToFlag<K extends ProjectCommand>(
  registry: Registry, projectId: string, command: K, principal: Principal,
): Promise<Result<ProjectReplies[K['type']] extends Versioned<infer T> ? T : never>> {
  const found = registry.find(projectId);
  if (!found.ok) return failed(found.error);
  const decision = await found.actor.send(command, principalLabel(principal));
  return fromVersioned(decision as Decision<unknown, Versioned<ProjectReplies[K['type']] extends Versioned<infer T> ? T : never>>);
}
